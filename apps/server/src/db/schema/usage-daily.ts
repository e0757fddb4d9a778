import { bigint, date, index, integer, pgTable, primaryKey, smallint, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * Daily roll-up of usage_events, kept by a statement-level trigger on usage_events (migration
 * 0001): each metering INSERT adds its rows, grouped, in the same statement, so the roll-up never
 * disagrees with the rows and the gateway runs no extra query. The usage page reads only this
 * table (a few thousand rows for a month of a million calls) instead of scanning the calls.
 * Missing ids are stored as the zero uuid so the primary key can merge them.
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    callerAccountId: uuid('caller_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    providerAccountId: uuid('provider_account_id').notNull(),
    endpointId: uuid('endpoint_id').notNull(),
    keyId: uuid('key_id').notNull(),
    /** status / 100: 2, 3, 4 or 5. */
    statusClass: smallint('status_class').notNull(),
    /** Index into LATENCY_BOUNDS_MS (width_bucket): calls with latency in [bound[i-1], bound[i]). */
    latencyBucket: smallint('latency_bucket').notNull(),
    calls: integer('calls').notNull(),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull(),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull(),
    /** Calls whose tokens were estimated by the gateway. */
    estimatedCalls: integer('estimated_calls').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'usage_daily_pk',
      columns: [
        t.callerAccountId,
        t.day,
        t.providerAccountId,
        t.endpointId,
        t.keyId,
        t.statusClass,
        t.latencyBucket,
      ],
    }),
    index('usage_daily_provider_day_idx').on(t.providerAccountId, t.day),
  ],
);
