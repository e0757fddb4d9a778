import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Billing plans, synced (upserted) from the plans file at every start. Prices in minor units. */
export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  price: integer('price').notNull(),
  currency: text('currency').notNull(),
  currencySymbol: text('currency_symbol').notNull(),
  interval: text('interval').notNull(),
  type: text('type').notNull(),
  quotaCallsMonth: integer('quota_calls_month').notNull(),
  rateLimitPerMinute: integer('rate_limit_per_minute').notNull(),
  /** Prompt plus completion tokens per key and minute (contract 6e); null for no limit. */
  tokensPerMinute: integer('tokens_per_minute'),
  sort: integer('sort').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
