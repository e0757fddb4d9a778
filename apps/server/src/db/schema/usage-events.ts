import { bigserial, index, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * One row per gateway call, written in batches off the request path. Key and endpoint ids are
 * kept without foreign keys so metering never blocks on (or loses rows to) a concurrent delete.
 */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    callerAccountId: uuid('caller_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id'),
    endpointId: uuid('endpoint_id'),
    providerAccountId: uuid('provider_account_id'),
    status: integer('status').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('usage_events_caller_created_idx').on(t.callerAccountId, t.createdAt),
    index('usage_events_provider_created_idx').on(t.providerAccountId, t.createdAt),
  ],
);
