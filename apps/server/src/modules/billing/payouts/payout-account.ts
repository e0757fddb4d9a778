import { eq } from 'drizzle-orm';
import { normalizeDigits, normalizeIban } from '@air/shared/bank';
import type { TPayoutAccount, TPayoutAccountUpdate } from '@air/shared/schemas/payout';
import { payoutAccounts } from '../../../db/schema/payout-accounts';
import { AppError } from '../../../lib/app-error';
import type { TBilling } from '../context';
import { processorCall } from '../errors';

type TRow = typeof payoutAccounts.$inferSelect;

function wire(row: TRow, onboardingUrl: string | null): TPayoutAccount {
  return {
    method: row.method,
    holder_name: row.holderName,
    country: row.country,
    last4: row.last4,
    ready: row.method !== 'stripe' || row.ready,
    onboarding_url: onboardingUrl,
    updated_at: row.updatedAt.toISOString(),
  };
}

async function rowOf(b: Pick<TBilling, 'db'>, accountId: string): Promise<TRow | null> {
  const [row] = await b.db
    .select()
    .from(payoutAccounts)
    .where(eq(payoutAccounts.accountId, accountId))
    .limit(1);
  return row ?? null;
}

/** Stripe's links back to the payouts page (the console reads `onboarding` to say what happened). */
function onboardingUrls(b: TBilling) {
  const page = new URL('/account/payouts', b.appUrl);
  const returnUrl = new URL(page);
  returnUrl.searchParams.set('onboarding', 'done');
  const refreshUrl = new URL(page);
  refreshUrl.searchParams.set('onboarding', 'refresh');
  return { returnUrl: returnUrl.toString(), refreshUrl: refreshUrl.toString() };
}

/**
 * Where the account's payouts go, or null. In stripe mode an account still onboarding is asked
 * again (Stripe's answer is stored once it is ready) and a fresh onboarding link comes with it.
 */
export async function payoutAccountOf(b: TBilling, accountId: string): Promise<TPayoutAccount | null> {
  const row = await rowOf(b, accountId);
  if (!row) return null;
  const connect = b.provider.connect;
  if (row.method !== 'stripe' || row.ready || !connect || !row.stripeAccountId) return wire(row, null);
  const ready = await processorCall(() => connect.ready(row.stripeAccountId!));
  if (ready) {
    const [updated] = await b.db
      .update(payoutAccounts)
      .set({ ready: true, updatedAt: new Date() })
      .where(eq(payoutAccounts.accountId, accountId))
      .returning();
    return wire(updated!, null);
  }
  const link = await processorCall(() => connect.onboardingLink(row.stripeAccountId!, onboardingUrls(b)));
  return wire(row, link);
}

/**
 * `PUT /api/account/payout-account` (owner): a bank account in local mode (checked for form by the
 * schema; the holder, the country and the last four digits are kept, never the number), or the
 * Stripe Express account in stripe mode (made once; the answer carries its onboarding link).
 */
export async function setPayoutAccount(
  b: TBilling,
  accountId: string,
  input: TPayoutAccountUpdate,
  email: string | null,
): Promise<TPayoutAccount> {
  const connect = b.provider.connect;
  if (input.method === 'stripe') {
    if (!connect)
      throw new AppError('validation', { inputError: 'method', messageKey: 'validation.payout_method' });
    const existing = await rowOf(b, accountId);
    const stripeAccountId =
      existing?.stripeAccountId ?? (await processorCall(() => connect.createAccount({ accountId, email })));
    const values = {
      method: 'stripe' as const,
      holderName: null,
      country: null,
      last4: null,
      stripeAccountId,
      ready: existing?.stripeAccountId === stripeAccountId ? existing.ready : false,
      updatedAt: new Date(),
    };
    await b.db
      .insert(payoutAccounts)
      .values({ accountId, ...values })
      .onConflictDoUpdate({ target: payoutAccounts.accountId, set: values });
    return (await payoutAccountOf(b, accountId))!;
  }
  // Stripe collects the bank account itself (onboarding): a number typed here would go nowhere.
  if (connect)
    throw new AppError('validation', { inputError: 'method', messageKey: 'validation.payout_method' });
  const number = input.method === 'iban' ? normalizeIban(input.iban) : normalizeDigits(input.account_number);
  const values = {
    method: input.method,
    holderName: input.holder_name,
    country: input.method === 'iban' ? number.slice(0, 2) : 'US',
    last4: number.slice(-4),
    stripeAccountId: null,
    ready: true,
    updatedAt: new Date(),
  };
  const [row] = await b.db
    .insert(payoutAccounts)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: payoutAccounts.accountId, set: values })
    .returning();
  return wire(row!, null);
}
