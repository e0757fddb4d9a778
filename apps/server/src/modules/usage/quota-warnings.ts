import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { TPlan } from '@air/shared/schemas/plan';
import { entitlementsOf, lowestQuotaCallsMonth } from '../billing/service';
import type { TDb } from '../../db/client';
import { periodOf } from './period';
import type { TMailer } from '../../mail/mailer';
import { accountNames, ownerContacts } from '../membership/service';
import { isNotificationOn } from '../notification/service';
import { rowsOf } from './insight';
import { dayOf } from './period';

/** Per cent of the monthly quota at which the owner is told, lowest first. */
export const QUOTA_WARNING_LEVELS = [80, 100] as const;
const CHECK_EVERY_MS = 60_000;

interface TOverAccount {
  account_id: string;
  account_name: string;
  quota: number;
  calls: number;
}

/**
 * Mails the owners of every account that passed 80 % or 100 % of its monthly quota, once per level
 * and month: the quota_warnings row is claimed first (insert … on conflict do nothing), so several
 * instances or overlapping runs send each mail once. Reads the daily roll-up, never the gateway's
 * path. When an account jumps past both levels at once only the 100 % mail goes out. The quota is
 * the one the gateway enforces (billing's `entitlementsOf`: the free plan's while a paid plan is
 * unpaid), asked for in one batch for the accounts past the lowest quota any plan has. Returns the
 * mails sent (for tests and the log).
 */
export async function checkQuotaWarnings(
  db: TDb,
  plans: TPlan[],
  mailer: TMailer,
  log: FastifyBaseLogger,
  now = Date.now(),
): Promise<{ accountId: string; level: number; to: string }[]> {
  const date = new Date(now);
  const monthStart = dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const period = periodOf(now);
  const lowest = QUOTA_WARNING_LEVELS[0];
  // Only accounts past the lowest level of the lowest quota can be over their own: the rest stay in SQL.
  const floor = await lowestQuotaCallsMonth(db, plans);
  const candidates = await rowsOf<Omit<TOverAccount, 'quota'>>(
    db,
    sql`select d.caller_account_id::text as account_id, a.name as account_name, sum(d.calls)::float8 as calls
      from usage_daily d
      join ${accountNames(db, 'a')} on a.id = d.caller_account_id and a.closed_at is null
      where d.day >= ${monthStart}::date
      group by d.caller_account_id, a.name
      having sum(d.calls) * 100 >= ${floor}::bigint * ${lowest}`,
  );
  const entitled = await entitlementsOf(
    db,
    plans,
    candidates.map((account) => account.account_id),
  );
  const over: TOverAccount[] = candidates
    .map((account) => ({ ...account, quota: entitled.get(account.account_id)!.quotaCallsMonth }))
    .filter((account) => account.calls * 100 >= account.quota * lowest);
  const sent: { accountId: string; level: number; to: string }[] = [];
  for (const account of over) {
    const reached = QUOTA_WARNING_LEVELS.filter((level) => account.calls * 100 >= account.quota * level);
    const claimed = await rowsOf<{ level: number }>(
      db,
      sql`insert into quota_warnings (account_id, period, level)
        select ${account.account_id}::uuid, ${period}, unnest(${sql.param(reached)}::smallint[])
        on conflict do nothing returning level::int as level`,
    );
    if (claimed.length === 0) continue;
    const level = Math.max(...claimed.map((row) => row.level));
    const owners = await ownerContacts(db, account.account_id);
    for (const owner of owners) {
      if (!(await isNotificationOn(db, owner.id, 'quota_warning'))) continue;
      try {
        await mailer.send({
          to: owner.email,
          locale: owner.locale,
          template: 'quota_warning',
          params: {
            name: owner.name,
            account_name: account.account_name,
            level: String(level),
            calls: String(account.calls),
            quota: String(account.quota),
          },
        });
        sent.push({ accountId: account.account_id, level, to: owner.email });
      } catch (error) {
        log.error({ err: error, accountId: account.account_id }, 'quota warning mail failed');
      }
    }
  }
  return sent;
}

/** Checks every minute in the background (off the gateway's path); stops with the app. */
export function startQuotaWarnings(app: FastifyInstance): void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    checkQuotaWarnings(app.db, app.plans, app.mailer, app.log)
      .catch((error: unknown) => app.log.error({ err: error }, 'quota warning check failed'))
      .finally(() => (running = false));
  }, CHECK_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
