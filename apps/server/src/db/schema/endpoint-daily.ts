import { date, integer, pgTable, primaryKey, smallint, uuid } from 'drizzle-orm/pg-core';

/**
 * Daily calls per endpoint, by status class and latency bucket, for the public catalog's
 * statistics (contract 5a): kept by the same statement trigger as usage_daily (each metering
 * INSERT adds its rows, grouped), so the catalog reads a few rows per endpoint and day instead of
 * scanning calls or grouping every caller's roll-up rows. Latency buckets as usage_daily's
 * (LATENCY_BOUNDS_MS in modules/usage/period.ts).
 */
export const endpointDaily = pgTable(
  'endpoint_daily',
  {
    endpointId: uuid('endpoint_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    /** status / 100: 2, 3, 4 or 5. */
    statusClass: smallint('status_class').notNull(),
    latencyBucket: smallint('latency_bucket').notNull(),
    calls: integer('calls').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'endpoint_daily_pk',
      columns: [t.endpointId, t.day, t.statusClass, t.latencyBucket],
    }),
  ],
);
