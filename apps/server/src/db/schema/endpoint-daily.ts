import { bigint, date, integer, pgTable, primaryKey, smallint, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    /**
     * Completion tokens of the 2xx answers not from the cache that reported some, and the time
     * they took to generate (ms: a stream's latency less its first byte, else the latency): the
     * catalog's tokens per second (decision 057).
     */
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull().default(0),
    generationMs: bigint('generation_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: 'endpoint_daily_pk',
      columns: [t.endpointId, t.day, t.statusClass, t.latencyBucket],
    }),
  ],
);

/**
 * Time to first byte of streamed 2xx answers per endpoint and day, in LATENCY_BOUNDS_MS buckets:
 * the catalog's `ttft_ms` percentile (decision 057). Kept by the metering trigger (other
 * accounts' calls only, cache hits left out).
 */
export const endpointTtftDaily = pgTable(
  'endpoint_ttft_daily',
  {
    endpointId: uuid('endpoint_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    bucket: smallint('bucket').notNull(),
    calls: integer('calls').notNull(),
  },
  (t) => [primaryKey({ name: 'endpoint_ttft_daily_pk', columns: [t.endpointId, t.day, t.bucket] })],
);

/**
 * One row per endpoint and UTC minute with calls that say whether it was up (decision 057):
 * successes (2xx), failures (5xx, or an upstream's own 429), and the failure runs needed to merge
 * batches in call order: failures before the minute's first success, after its last, and the
 * longest run of consecutive failures. Kept by the metering trigger (other accounts' calls only,
 * cache hits left out), and pruned there past 31 days, so at most 44,640 rows per endpoint.
 */
export const endpointMinute = pgTable(
  'endpoint_minute',
  {
    endpointId: uuid('endpoint_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    ok: integer('ok').notNull(),
    failed: integer('failed').notNull(),
    leadFailed: integer('lead_failed').notNull(),
    tailFailed: integer('tail_failed').notNull(),
    maxFailedRun: integer('max_failed_run').notNull(),
  },
  (t) => [primaryKey({ name: 'endpoint_minute_pk', columns: [t.endpointId, t.minute] })],
);
