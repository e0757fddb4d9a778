import { bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { webhooks } from './webhooks';

/**
 * The durable delivery queue and its log: one row per event and webhook, written when the event
 * happens and updated by the worker. `seq` orders an account's deliveries to one webhook (the
 * worker sends the oldest pending one only); `lease_until` is the claim of the instance sending it,
 * so two instances never send one at once and a killed instance's claim lapses. `body` is the
 * exact JSON signed and sent, so a retry sends the same bytes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    event: text('event').notNull(),
    body: text('body').notNull(),
    /** pending, delivered or failed (gave up after 24 hours). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_webhook_seq_idx').on(t.webhookId, t.seq),
    index('webhook_deliveries_pending_idx').on(t.status, t.nextAttemptAt),
  ],
);
