import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The usage journal segments whose rows are in usage_events, written in the same transaction as
 * the rows: a segment found here after a crash was committed already and is not replayed twice.
 */
export const meterBatches = pgTable('meter_batches', {
  segment: text('segment').primaryKey(),
  committedAt: timestamp('committed_at', { withTimezone: true }).notNull().defaultNow(),
});
