import { and, asc, count, desc, eq, lt, sql } from 'drizzle-orm';
import {
  MAX_WEBHOOKS,
  WEBHOOK_TEST_EVENT,
  type TCreatedWebhook,
  type TCreateWebhook,
  type TUpdateWebhook,
  type TWebhook,
  type TDeliveryPage,
  type TWebhookDelivery,
  type TWebhookEvent,
} from '@air/shared/schemas/webhook';
import type { TDb } from '../../db/client';
import { webhookDeliveries } from '../../db/schema/webhook-deliveries';
import { webhooks } from '../../db/schema/webhooks';
import { AppError } from '../../lib/app-error';
import { CURSOR_INTEGER, decodeCursor, encodeCursor } from '../../lib/cursor';
import { encryptSecret } from '../../lib/crypto';
import type { TLookup } from '../../lib/upstream-address';
import { assertWebhookUrl } from './address';
import { newDeliveryId, newWebhookSecret } from './signing';

/** What the webhook service needs: the database, SECRET (seals the signing secrets), the address rule. */
export interface TWebhookDeps {
  db: TDb;
  secret: string;
  allowPrivate: boolean;
  lookup?: TLookup;
}

type TWebhookRow = typeof webhooks.$inferSelect;

function toWire(row: TWebhookRow): TWebhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as TWebhookEvent[],
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listWebhooks(db: TDb, accountId: string): Promise<TWebhook[]> {
  const rows = await db
    .select()
    .from(webhooks)
    .where(eq(webhooks.accountId, accountId))
    .orderBy(asc(webhooks.createdAt));
  return rows.map(toWire);
}

export async function createWebhook(
  deps: TWebhookDeps,
  accountId: string,
  input: TCreateWebhook,
): Promise<TCreatedWebhook> {
  const url = await assertWebhookUrl(input.url, deps.allowPrivate, deps.lookup);
  const [{ value: existing } = { value: 0 }] = await deps.db
    .select({ value: count() })
    .from(webhooks)
    .where(eq(webhooks.accountId, accountId));
  if (existing >= MAX_WEBHOOKS)
    throw new AppError('validation', {
      inputError: 'url',
      messageKey: 'validation.webhook_limit',
      params: { max: MAX_WEBHOOKS },
    });
  const secret = newWebhookSecret();
  const [row] = await deps.db
    .insert(webhooks)
    .values({ accountId, url, events: input.events, secretEnc: encryptSecret(deps.secret, secret) })
    .returning();
  return { ...toWire(row!), secret };
}

async function ownWebhook(db: TDb, accountId: string, id: string): Promise<TWebhookRow> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.accountId, accountId)))
    .limit(1);
  if (!row) throw new AppError('not_found');
  return row;
}

export async function updateWebhook(
  deps: TWebhookDeps,
  accountId: string,
  id: string,
  input: TUpdateWebhook,
): Promise<TWebhook> {
  await ownWebhook(deps.db, accountId, id);
  const url =
    input.url === undefined ? undefined : await assertWebhookUrl(input.url, deps.allowPrivate, deps.lookup);
  const [row] = await deps.db
    .update(webhooks)
    .set({
      ...(url === undefined ? {} : { url }),
      ...(input.events === undefined ? {} : { events: input.events }),
      ...(input.active === undefined ? {} : { active: input.active }),
    })
    .where(and(eq(webhooks.id, id), eq(webhooks.accountId, accountId)))
    .returning();
  return toWire(row!);
}

/** Deletes the webhook and, with it, its pending deliveries and log. */
export async function deleteWebhook(db: TDb, accountId: string, id: string): Promise<number> {
  const rows = await db
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.accountId, accountId)))
    .returning({ id: webhooks.id });
  if (rows.length === 0) throw new AppError('not_found');
  return rows.length;
}

/** The body every delivery carries (contract 6e), as the exact text that is signed. */
function bodyOf(type: string, nowMs: number, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: new Date(nowMs).toISOString(), data });
}

/**
 * Queues one event for every active webhook of the account that takes it: a row per webhook in
 * the durable queue, committed before this returns, so neither a restart nor `kill -9` loses it.
 * Returns how many deliveries were queued.
 */
export async function enqueueEvent(
  db: TDb,
  accountId: string,
  type: TWebhookEvent,
  data: Record<string, unknown>,
  nowMs: number,
): Promise<number> {
  const targets = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.accountId, accountId),
        eq(webhooks.active, true),
        sql`${type} = any(${webhooks.events})`,
      ),
    );
  if (targets.length === 0) return 0;
  const body = bodyOf(type, nowMs, data);
  const at = new Date(nowMs);
  await db.insert(webhookDeliveries).values(
    targets.map((target) => ({
      id: newDeliveryId(),
      webhookId: target.id,
      accountId,
      event: type,
      body,
      nextAttemptAt: at,
      createdAt: at,
    })),
  );
  return targets.length;
}

/** Queues the test event for one webhook (even a paused one: the admin asked for it). */
export async function enqueueTest(db: TDb, accountId: string, id: string, nowMs: number): Promise<string> {
  const hook = await ownWebhook(db, accountId, id);
  const deliveryId = newDeliveryId();
  const at = new Date(nowMs);
  await db.insert(webhookDeliveries).values({
    id: deliveryId,
    webhookId: hook.id,
    accountId,
    event: WEBHOOK_TEST_EVENT,
    body: bodyOf(WEBHOOK_TEST_EVENT, nowMs, { webhook_id: hook.id }),
    nextAttemptAt: at,
    createdAt: at,
  });
  return deliveryId;
}

/** The newest deliveries of one webhook, for the log. */
export async function listDeliveries(
  db: TDb,
  accountId: string,
  id: string,
  page: { cursor?: string; limit: number },
): Promise<TDeliveryPage> {
  await ownWebhook(db, accountId, id);
  // Newest first by `seq` (unique, growing): the next page is what is strictly older.
  const after = page.cursor ? decodeCursor(page.cursor, [CURSOR_INTEGER]) : undefined;
  const found = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, id),
        eq(webhookDeliveries.accountId, accountId),
        after ? lt(webhookDeliveries.seq, Number(after[0])) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.seq))
    .limit(page.limit + 1);
  const rows = found.slice(0, page.limit);
  const last = rows.at(-1);
  const items = rows.map((row) => ({
    id: row.id,
    event: row.event,
    status: row.status as TWebhookDelivery['status'],
    attempts: row.attempts,
    response_status: row.responseStatus,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
  }));
  return { items, next_cursor: found.length > page.limit && last ? encodeCursor(String(last.seq)) : null };
}
