import { sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { spendLimitRows } from '../billing/service';
import { governedKeys } from '../keys/service';
import { accountNames } from '../membership/service';
import { picosToMinor } from '../money/service';
import { rowsOf } from './insight';
import { dayOf } from './period';

/*
 * The limit alerts' sources in tokens and money (issue 42 item 3, decision 049), beside the plan
 * quota and the key caps of quota-warnings.ts: the account's spend limit (`spend_limit`), each
 * key's budget (`key_spend`) and each key's tokens per minute (`key_tokens`). Each reads the
 * stored usage of the accounts or keys that have such a limit (through the caller's index), never
 * the gateway's path; only those past the lowest level leave SQL.
 */

export type TLimitName = 'plan_calls' | 'key_calls' | 'key_tokens' | 'key_spend' | 'spend_limit';

/** One limit of one account (or one of its keys) that is past the lowest level. */
export interface TLimitUse {
  accountId: string;
  accountName: string;
  limit: TLimitName;
  /** The key the limit is a key's, and its name (for the mail). */
  keyId?: string;
  keyName?: string;
  used: number;
  cap: number;
}

/**
 * A token limit is passed for a minute at a time, and a burst that fills one minute says little:
 * the alert is for sustained use, the key's tokens over the last SUSTAINED_MINUTES minutes averaged
 * per minute, against its tokens per minute (50 %: it averaged half its limit for ten minutes).
 */
export const SUSTAINED_MINUTES = 10;

function monthStartOf(now: number): string {
  const date = new Date(now);
  return dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

/** Each spend-limited account's marketplace spend this period (minor units) against its limit. */
export async function spendLimitUse(db: TDb, now: number): Promise<TLimitUse[]> {
  const rows = await rowsOf<{ account_id: string; account_name: string; cap: number; picos: string }>(
    db,
    sql`select l.account_id::text as account_id, a.name as account_name, l.limit_minor::float8 as cap,
        coalesce(sum(e.cost_picos), 0)::text as picos
      from ${spendLimitRows(db, 'l')}
      join ${accountNames(db, 'a')} on a.id = l.account_id and a.closed_at is null
      join usage_events e on e.caller_account_id = l.account_id and e.cost_picos is not null
        and e.created_at >= ${monthStartOf(now)}::timestamptz
      where l.limit_minor > 0
      group by l.account_id, a.name, l.limit_minor`,
  );
  return rows
    .map((row): TLimitUse => ({
      accountId: row.account_id,
      accountName: row.account_name,
      limit: 'spend_limit',
      used: picosToMinor(row.picos),
      cap: Number(row.cap),
    }))
    .filter((use) => use.used * 2 >= use.cap);
}

/** Each budgeted key's marketplace spend this period (minor units) against its `monthly_spend`. */
export async function keySpendUse(db: TDb, now: number): Promise<TLimitUse[]> {
  const rows = await rowsOf<{
    account_id: string;
    account_name: string;
    key_id: string;
    key_name: string;
    cap: number;
    picos: string;
  }>(
    db,
    sql`select k.account_id::text as account_id, a.name as account_name, k.id::text as key_id,
        k.name as key_name, k.monthly_spend::float8 as cap, coalesce(sum(e.cost_picos), 0)::text as picos
      from ${governedKeys(db, 'k')}
      join ${accountNames(db, 'a')} on a.id = k.account_id and a.closed_at is null
      join usage_events e on e.caller_account_id = k.account_id and e.key_id = k.id
        and e.cost_picos is not null and e.created_at >= ${monthStartOf(now)}::timestamptz
      where k.monthly_spend > 0
      group by k.account_id, a.name, k.id, k.name, k.monthly_spend`,
  );
  return rows
    .map((row): TLimitUse => ({
      accountId: row.account_id,
      accountName: row.account_name,
      limit: 'key_spend',
      keyId: row.key_id,
      keyName: row.key_name,
      used: picosToMinor(row.picos),
      cap: Number(row.cap),
    }))
    .filter((use) => use.used * 2 >= use.cap);
}

/** Each token-limited key's tokens a minute over the last SUSTAINED_MINUTES, against its limit. */
export async function keyTokensUse(db: TDb, now: number): Promise<TLimitUse[]> {
  const since = new Date(now - SUSTAINED_MINUTES * 60_000).toISOString();
  const rows = await rowsOf<{
    account_id: string;
    account_name: string;
    key_id: string;
    key_name: string;
    cap: number;
    tokens: number;
  }>(
    db,
    sql`select k.account_id::text as account_id, a.name as account_name, k.id::text as key_id,
        k.name as key_name, k.tokens_per_minute::float8 as cap,
        sum(coalesce(e.prompt_tokens, 0) + coalesce(e.completion_tokens, 0))::float8 as tokens
      from ${governedKeys(db, 'k')}
      join ${accountNames(db, 'a')} on a.id = k.account_id and a.closed_at is null
      join usage_events e on e.caller_account_id = k.account_id and e.key_id = k.id
        and e.created_at >= ${since}::timestamptz and e.created_at <= ${new Date(now).toISOString()}::timestamptz
      where k.tokens_per_minute is not null
      group by k.account_id, a.name, k.id, k.name, k.tokens_per_minute
      having sum(coalesce(e.prompt_tokens, 0) + coalesce(e.completion_tokens, 0)) * 2
        >= k.tokens_per_minute::bigint * ${SUSTAINED_MINUTES}`,
  );
  return rows.map((row) => ({
    accountId: row.account_id,
    accountName: row.account_name,
    limit: 'key_tokens',
    keyId: row.key_id,
    keyName: row.key_name,
    used: Math.floor(Number(row.tokens) / SUSTAINED_MINUTES),
    cap: Number(row.cap),
  }));
}
