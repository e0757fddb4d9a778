import { eq } from 'drizzle-orm';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TSpendLimit } from '@air/shared/schemas/spend-limit';
import type { TDb } from '../../db/client';
import { spendLimits } from '../../db/schema/spend-limits';
import type { TBilling } from './context';
import { entitlementsFor } from './entitlements';

/** The currency an account is billed in: its entitled plan's (the free plan's carries one too). */
export async function billingCurrencyOf(
  db: TDb,
  plans: TPlan[],
  accountId: string,
): Promise<{ currency: string; currency_symbol: string }> {
  const { planId } = await entitlementsFor(db, plans, accountId);
  const plan = plans.find((p) => p.id === planId) ?? plans.find((p) => p.price > 0) ?? plans[0];
  return { currency: plan?.currency ?? 'usd', currency_symbol: plan?.currency_symbol ?? '$' };
}

/**
 * Sets (or, with null, removes) the account's cap on marketplace spend per period. Every save,
 * even of the same amount, stamps `updated_at`: the gateway counts against a limit under a counter
 * named by that stamp, so a new limit starts from the stored spend rather than a stale count. The
 * account is published so every instance drops its cached entitlements at once.
 */
export async function setSpendLimit(
  b: Pick<TBilling, 'db' | 'plans' | 'changes'>,
  accountId: string,
  limitMinor: number | null,
): Promise<TSpendLimit> {
  if (limitMinor === null) {
    await b.db.delete(spendLimits).where(eq(spendLimits.accountId, accountId));
  } else {
    const updatedAt = new Date();
    await b.db
      .insert(spendLimits)
      .values({ accountId, limitMinor, updatedAt })
      .onConflictDoUpdate({ target: spendLimits.accountId, set: { limitMinor, updatedAt } });
  }
  await b.changes.publish({ kind: 'account', accountId });
  return { marketplace_spend_limit: limitMinor, ...(await billingCurrencyOf(b.db, b.plans, accountId)) };
}

/**
 * Spend limits as a sub-select (`account_id`, `limit_minor`) for joining into one query: the limit
 * alerts count each limited account's spend this period against its limit. Usable in SQL text.
 */
export function spendLimitRows(db: TDb, alias = 'spend_limit_rows') {
  return db
    .select({ accountId: spendLimits.accountId, limitMinor: spendLimits.limitMinor })
    .from(spendLimits)
    .as(alias);
}
