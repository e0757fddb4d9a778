import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TLog, TServices } from '../../core/services';
import type { TDb } from '../../db/client';
import type { TMailer } from '../../mail/mailer';
import { billingCurrencyOf, entitlementsOf, lowestQuotaCallsMonth } from '../billing/service';
import { accountNames, adminContacts } from '../membership/service';
import { cappedKeys, keyNames } from '../keys/service';
import { isNotificationOn } from '../notification/service';
import { rowsOf } from './insight';
import { dayOf, periodOf } from './period';
import { keySpendUse, keyTokensUse, spendLimitUse, type TLimitName, type TLimitUse } from './limit-sources';

/**
 * Limit alerts (contract 6e, issue 42 item 3): at 50, 80 and 100 % of a limit, one notification
 * per limit, level and period: a mail to the account's owners and admins (their `quota_warning`
 * preference applies) and a `limit.threshold` / `limit.reached` webhook. Each limit is a source
 * answering its accounts' use and cap; today the plan's monthly calls (`plan_calls`). The claim is
 * a quota_warnings row inserted first (insert … on conflict do nothing), so several instances or
 * overlapping runs notify once; its `period` is the period for the plan quota and
 * `period:limit:subject` for the others (one table, no new migration while others are in flight).
 */
export const QUOTA_WARNING_LEVELS = [50, 80, 100] as const;
const CHECK_EVERY_MS = 60_000;

export type { TLimitName, TLimitUse };

export interface TAlertDeps {
  db: TDb;
  plans: TPlan[];
  mailer: TMailer;
  log: TLog;
  webhooks: TServices['webhooks'];
}

/** The sent notifications, for tests and the log. */
export interface TAlertSent {
  accountId: string;
  limit: TLimitName;
  level: number;
  /** Mail recipients (none when every admin turned the preference off). */
  to: string[];
}

/** The zero uuid stands for a missing endpoint in usage_daily: a refused call, not counted to a cap. */
const NO_ENDPOINT = '00000000-0000-0000-0000-000000000000';

/**
 * The plan quota's use this month: only accounts past the lowest level of the lowest quota any
 * plan has leave SQL; their quota is the one the gateway enforces (billing's `entitlementsOf`:
 * the free plan's while a paid plan is unpaid). Reads the daily roll-up, never the gateway's path;
 * refused calls (logged without an endpoint) are not calls of the quota.
 */
async function planCallsUse(db: TDb, plans: TPlan[], now: number): Promise<TLimitUse[]> {
  const date = new Date(now);
  const monthStart = dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const floor = await lowestQuotaCallsMonth(db, plans);
  const candidates = await rowsOf<{ account_id: string; account_name: string; calls: number }>(
    db,
    sql`select d.caller_account_id::text as account_id, a.name as account_name, sum(d.calls)::float8 as calls
      from usage_daily d
      join ${accountNames(db, 'a')} on a.id = d.caller_account_id and a.closed_at is null
      where d.day >= ${monthStart}::date and d.endpoint_id <> ${NO_ENDPOINT}::uuid
      group by d.caller_account_id, a.name
      having sum(d.calls) * 100 >= ${floor}::bigint * ${QUOTA_WARNING_LEVELS[0]}`,
  );
  const entitled = await entitlementsOf(
    db,
    plans,
    candidates.map((account) => account.account_id),
  );
  return candidates.map((account) => ({
    accountId: account.account_id,
    accountName: account.account_name,
    limit: 'plan_calls',
    used: account.calls,
    cap: entitled.get(account.account_id)!.quotaCallsMonth,
  }));
}

/**
 * Each active key's calls this month against its cap (issue 38 item 2: a key's cap reached is
 * told once), from the daily roll-up like the plan quota: the calls the cap counts are those with
 * an endpoint (refusals are logged without one). Only keys past the lowest level leave SQL.
 */
async function keyCallsUse(db: TDb, now: number): Promise<TLimitUse[]> {
  const date = new Date(now);
  const monthStart = dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const rows = await rowsOf<{
    account_id: string;
    account_name: string;
    key_id: string;
    key_name: string;
    cap: number;
    calls: number;
  }>(
    db,
    sql`select d.caller_account_id::text as account_id, a.name as account_name, k.id::text as key_id,
        n.name as key_name, k.monthly_calls::float8 as cap, sum(d.calls)::float8 as calls
      from usage_daily d
      join ${cappedKeys(db, 'k')} on k.id = d.key_id and k.account_id = d.caller_account_id
      join ${keyNames(db, 'n')} on n.id = k.id
      join ${accountNames(db, 'a')} on a.id = d.caller_account_id and a.closed_at is null
      where d.day >= ${monthStart}::date and d.endpoint_id <> ${NO_ENDPOINT}::uuid
      group by d.caller_account_id, a.name, k.id, n.name, k.monthly_calls
      having sum(d.calls) * 100 >= k.monthly_calls::bigint * ${QUOTA_WARNING_LEVELS[0]}`,
  );
  return rows.map((row) => ({
    accountId: row.account_id,
    accountName: row.account_name,
    limit: 'key_calls',
    keyId: row.key_id,
    keyName: row.key_name,
    used: Number(row.calls),
    cap: Number(row.cap),
  }));
}

function claimKey(period: string, use: TLimitUse): string {
  // The spend limit is the account's own (its subject is the account, as the claim's row says).
  return use.limit === 'plan_calls' ? period : `${period}:${use.limit}:${use.keyId ?? ''}`;
}

/** Claims the levels `use` reached and not yet notified; answers the highest claimed, or null. */
async function claimLevel(db: TDb, period: string, use: TLimitUse): Promise<number | null> {
  const reached = QUOTA_WARNING_LEVELS.filter((level) => use.cap > 0 && use.used * 100 >= use.cap * level);
  if (reached.length === 0) return null;
  const claimed = await rowsOf<{ level: number }>(
    db,
    sql`insert into quota_warnings (account_id, period, level)
      select ${use.accountId}::uuid, ${claimKey(period, use)}, unnest(${sql.param(reached)}::smallint[])
      on conflict do nothing returning level::int as level`,
  );
  return claimed.length === 0 ? null : Math.max(...claimed.map((row) => row.level));
}

/**
 * The mail of a limit: calls (the plan's, or a key's cap) in `quota_warning`; tokens and money
 * (a key's tokens per minute, its budget, the spend limit) in `limit_warning`, amounts in the
 * billing currency with two decimals, as the console enters them.
 */
async function mailOf(
  deps: TAlertDeps,
  use: TLimitUse,
  level: number,
): Promise<{ template: string; params: Record<string, string> }> {
  const base = { account_name: use.accountName, level: String(level) };
  if (use.limit === 'plan_calls' || use.limit === 'key_calls')
    return {
      template: 'quota_warning',
      params: {
        ...base,
        calls: String(use.used),
        quota: String(use.cap),
        key_name: use.limit === 'key_calls' ? (use.keyName ?? '') : '',
      },
    };
  let amount = (value: number) => String(value);
  if (use.limit !== 'key_tokens') {
    const { currency_symbol: symbol } = await billingCurrencyOf(deps.db, deps.plans, use.accountId);
    amount = (minor) => `${symbol}${(minor / 100).toFixed(2)}`;
  }
  return {
    template: 'limit_warning',
    params: {
      ...base,
      limit: use.limit,
      used: amount(use.used),
      cap: amount(use.cap),
      key_name: use.keyName ?? '',
    },
  };
}

/** The mail and the webhook of one claimed level (several levels passed at once: the highest only). */
async function notify(deps: TAlertDeps, use: TLimitUse, level: number): Promise<TAlertSent> {
  await deps.webhooks.emit(use.accountId, level === 100 ? 'limit.reached' : 'limit.threshold', {
    limit: use.limit,
    percent: level,
    used: use.used,
    cap: use.cap,
    ...(use.keyId ? { key_id: use.keyId } : {}),
  });
  const to: string[] = [];
  const mail = await mailOf(deps, use, level);
  for (const admin of await adminContacts(deps.db, use.accountId)) {
    if (!(await isNotificationOn(deps.db, admin.id, 'quota_warning'))) continue;
    try {
      await deps.mailer.send({
        to: admin.email,
        locale: admin.locale,
        template: mail.template,
        params: { name: admin.name, ...mail.params },
      });
      to.push(admin.email);
    } catch (error) {
      deps.log.error({ err: error, accountId: use.accountId }, 'limit alert mail failed');
    }
  }
  return { accountId: use.accountId, limit: use.limit, level, to };
}

/** One pass over every limit source: claims and notifies what reached a new level this period. */
export async function checkLimitAlerts(deps: TAlertDeps, now = Date.now()): Promise<TAlertSent[]> {
  const period = periodOf(now);
  const uses = [
    ...(await planCallsUse(deps.db, deps.plans, now)),
    ...(await keyCallsUse(deps.db, now)),
    ...(await spendLimitUse(deps.db, now)),
    ...(await keySpendUse(deps.db, now)),
    ...(await keyTokensUse(deps.db, now)),
  ];
  const sent: TAlertSent[] = [];
  for (const use of uses) {
    const level = await claimLevel(deps.db, period, use);
    if (level !== null) sent.push(await notify(deps, use, level));
  }
  return sent;
}

/** Checks every minute in the background (off the gateway's path); stops with the app. */
export function startQuotaWarnings(app: FastifyInstance): void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    checkLimitAlerts(app)
      .catch((error: unknown) => app.log.error({ err: error }, 'limit alert check failed'))
      .finally(() => (running = false));
  }, CHECK_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
