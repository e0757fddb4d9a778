import { sql } from 'drizzle-orm';
import type { TApiKey } from '@air/shared/schemas/api-key';
import type { TKeyPeriodUsage, TLimitReached, TLimitsState } from '@air/shared/schemas/limits';
import type { TUsageList } from '@air/shared/schemas/usage';
import type { TDb } from '../../db/client';
import { rowsOf } from './insight';
import { periodStart } from './period';
import { picosToMinor, PICOS_PER_MINOR } from '../money/service';

/** One key's calls, refusals, tokens and spend (exact picos) this period. */
export interface TKeyUse {
  calls: number;
  refused: number;
  tokens: number;
  spendPicos: bigint;
}

/** The period's use of an account's keys by key id, and the calls refused for a limit in all. */
export interface TKeysUse {
  period: string;
  /** The account's billing currency (what spend is counted in). */
  currency: string;
  byKey: Map<string, TKeyUse>;
  refused: number;
}

/**
 * The account's use of each of its keys this period, in one grouped query (issue 38 item 2):
 * `calls` counts what the key cap counts (rows with an endpoint, as `storedCalls` does), `refused`
 * the gateway's refusals for a limit (a 402 or 429 written without endpoint, refusal-log.ts).
 * Reads the caller's rows of the period once, through the caller's index.
 */
export async function keysPeriodUse(
  db: TDb,
  accountId: string,
  period: string,
  /** The account's billing currency (billing's `billingCurrencyOf`, read by the route). */
  currency: string,
): Promise<TKeysUse> {
  const rows = await rowsOf<{
    key_id: string | null;
    calls: number;
    refused: number;
    tokens: string;
    spend: string;
  }>(
    db,
    sql`select e.key_id::text as key_id,
        count(*) filter (where e.endpoint_id is not null)::int as calls,
        count(*) filter (where e.endpoint_id is null and e.status in (402, 429))::int as refused,
        coalesce(sum(coalesce(e.prompt_tokens, 0) + coalesce(e.completion_tokens, 0)), 0)::text as tokens,
        coalesce(sum(e.cost_picos), 0)::text as spend
      from usage_events e
      where e.caller_account_id = ${accountId}
        and e.created_at >= ${periodStart(period).toISOString()}::timestamptz
      group by e.key_id`,
  );
  const byKey = new Map<string, TKeyUse>();
  let refused = 0;
  for (const row of rows) {
    refused += Number(row.refused);
    if (row.key_id !== null)
      byKey.set(row.key_id, {
        calls: Number(row.calls),
        refused: Number(row.refused),
        tokens: Number(row.tokens),
        spendPicos: BigInt(row.spend),
      });
  }
  return { period, currency, byKey, refused };
}

/**
 * A key's use as `GET /api/key` answers it: its calls against its cap, its tokens, its spend
 * against its budget (the exact picos: reached when the gateway would refuse its next priced
 * call, whose charge is capped at the budget), and the refusals.
 */
export function keyPeriodUsage(
  key: Pick<TApiKey, 'id' | 'monthly_calls' | 'monthly_spend'>,
  use: TKeysUse,
): TKeyPeriodUsage {
  const { calls = 0, refused = 0, tokens = 0, spendPicos = 0n } = use.byKey.get(key.id) ?? {};
  const cap = key.monthly_calls;
  const budget = key.monthly_spend;
  return {
    period: use.period,
    calls,
    refused,
    limit_reached: cap !== null && calls >= cap,
    tokens,
    spend: picosToMinor(spendPicos),
    budget_reached: budget !== null && spendPicos >= BigInt(budget) * BigInt(PICOS_PER_MINOR),
    currency: use.currency,
  };
}

/**
 * The limits reached this period: the plan quota and the spend limit as the usage totals count
 * them (`accountUsage`: the gateway's own quota counter, the stored spend against the limit), and
 * each active key whose cap is used up; with the calls refused for a limit so far.
 */
export function limitsReached(totals: TUsageList, keys: TApiKey[], use: TKeysUse): TLimitsState {
  const reached: TLimitReached[] = [];
  const calls = totals.find((row) => row.label === 'calls');
  if (calls && calls.quota !== null && calls.total >= calls.quota)
    reached.push({ kind: 'quota', key_id: null, key_name: null });
  const spend = totals.find((row) => row.label === 'spend');
  if (spend && spend.quota !== null && spend.total >= spend.quota)
    reached.push({ kind: 'spend_limit', key_id: null, key_name: null });
  // A revoked key is refused for being revoked, not for its cap.
  for (const key of keys) {
    if (!key.active) continue;
    const usage = keyPeriodUsage(key, use);
    if (usage.limit_reached) reached.push({ kind: 'key_cap', key_id: key.id, key_name: key.name });
    if (usage.budget_reached) reached.push({ kind: 'key_budget', key_id: key.id, key_name: key.name });
  }
  return { period: use.period, reached, refused: use.refused };
}
