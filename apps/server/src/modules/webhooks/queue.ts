import { sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { nextAttemptAt } from './schedule';

/** How long a claim holds a delivery: longer than one attempt (its timeout), short enough that a killed instance's claim lapses soon. */
export const LEASE_MS = 30_000;

export interface TClaimed {
  id: string;
  webhookId: string;
  body: string;
  attempts: number;
  createdAt: Date;
  url: string;
  secretEnc: string;
  leaseUntil: Date;
}

async function rows<T>(db: TDb, query: SQL): Promise<T[]> {
  // Drizzle types a raw result per driver (`unknown` for the driver-agnostic TDb).
  const result = (await db.execute(query)) as { rows: T[] };
  return result.rows;
}

/**
 * Claims due deliveries for this instance: each one the oldest pending delivery of its webhook
 * (so a receiver gets an account's events in order, a later one never overtaking a retried one),
 * not claimed by another instance (`FOR UPDATE SKIP LOCKED`, then a lease), due by `nowMs`. A
 * lease that lapsed (its instance died) is claimed again: the delivery is sent at least once,
 * and receivers deduplicate on `webhook-id`.
 */
export async function claimDue(db: TDb, nowMs: number, limit: number): Promise<TClaimed[]> {
  const now = new Date(nowMs).toISOString();
  const lease = new Date(nowMs + LEASE_MS).toISOString();
  const claimed = await rows<{
    id: string;
    webhook_id: string;
    body: string;
    attempts: number;
    created_at: string | Date;
    url: string;
    secret_enc: string;
  }>(
    db,
    sql`update webhook_deliveries d set lease_until = ${lease}::timestamptz
      from webhooks w
      where w.id = d.webhook_id and d.id in (
        select h.id from webhook_deliveries h
        where h.status = 'pending' and h.next_attempt_at <= ${now}::timestamptz
          and (h.lease_until is null or h.lease_until < ${now}::timestamptz)
          and not exists (
            select 1 from webhook_deliveries e
            where e.webhook_id = h.webhook_id and e.status = 'pending' and e.seq < h.seq)
        order by h.seq
        limit ${limit}
        for update of h skip locked)
      returning d.id, d.webhook_id, d.body, d.attempts, d.created_at, w.url, w.secret_enc`,
  );
  return claimed.map((row) => ({
    id: row.id,
    webhookId: row.webhook_id,
    body: row.body,
    attempts: row.attempts,
    createdAt: new Date(row.created_at),
    url: row.url,
    secretEnc: row.secret_enc,
    leaseUntil: new Date(lease),
  }));
}

export interface TOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/**
 * Records one attempt under this instance's lease (a claim that lapsed and was taken by another
 * instance is left to that one): delivered, scheduled again, or given up after 24 hours.
 */
export async function recordAttempt(
  db: TDb,
  claim: TClaimed,
  outcome: TOutcome,
  nowMs: number,
): Promise<void> {
  const attempts = claim.attempts + 1;
  const now = new Date(nowMs).toISOString();
  const next = outcome.ok ? null : nextAttemptAt(claim.createdAt.getTime(), attempts, nowMs);
  const status = outcome.ok ? 'delivered' : next === null ? 'failed' : 'pending';
  await db.execute(
    sql`update webhook_deliveries set
        status = ${status}, attempts = ${attempts}, lease_until = null,
        response_status = ${outcome.status}, error = ${outcome.error},
        delivered_at = ${outcome.ok ? now : null}::timestamptz,
        next_attempt_at = ${next === null ? now : new Date(next).toISOString()}::timestamptz
      where id = ${claim.id} and lease_until = ${claim.leaseUntil.toISOString()}::timestamptz`,
  );
}

/** When the worker next has something to do: the earliest pending attempt or lapsing lease. */
export async function nextDueAt(db: TDb): Promise<number | null> {
  const [row] = await rows<{ at: string | Date | null }>(
    db,
    sql`select min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) as at
      from webhook_deliveries where status = 'pending'`,
  );
  return row?.at ? new Date(row.at).getTime() : null;
}
