import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { ZPlanFile, type TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { plans as plansTable } from '../../db/schema/plans';

/** Reads and validates the plans file (built-in or PLANS_FILE); a bad file stops the start. */
export function loadPlans(file: string): TPlan[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`PLANS_FILE: cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = ZPlanFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`PLANS_FILE: ${file}: ${issue.path.join('.') || 'file'}: ${issue.message}`);
  }
  return [...parsed.data.plans].sort((a, b) => a.sort - b.sort);
}

/**
 * Upserts the configured plans into the plans table. Plans removed from the file stay in the
 * table (subscriptions may still reference them) but are no longer offered (`app.plans`).
 */
export async function seedPlans(db: TDb, plans: TPlan[]): Promise<void> {
  if (plans.length === 0) return;
  await db
    .insert(plansTable)
    .values(
      plans.map((plan) => ({
        id: plan.id,
        name: plan.name,
        price: plan.price,
        currency: plan.currency,
        currencySymbol: plan.currency_symbol,
        interval: plan.interval,
        type: plan.type,
        quotaCallsMonth: plan.quota_calls_month,
        rateLimitPerMinute: plan.rate_limit_per_minute,
        tokensPerMinute: plan.tokens_per_minute,
        sort: plan.sort,
      })),
    )
    .onConflictDoUpdate({
      target: plansTable.id,
      set: {
        name: sql`excluded.name`,
        price: sql`excluded.price`,
        currency: sql`excluded.currency`,
        currencySymbol: sql`excluded.currency_symbol`,
        interval: sql`excluded.interval`,
        type: sql`excluded.type`,
        quotaCallsMonth: sql`excluded.quota_calls_month`,
        rateLimitPerMinute: sql`excluded.rate_limit_per_minute`,
        tokensPerMinute: sql`excluded.tokens_per_minute`,
        sort: sql`excluded.sort`,
        updatedAt: sql`now()`,
      },
    });
}
