import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plans } from './plans';

/** A tenant. Everything a customer owns hangs off an account and goes when it is deleted. */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    planId: text('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** What the owner says of the account on its marketplace provider page (plain text); null: nothing. */
    marketplaceProfile: text('marketplace_profile'),
  },
  (t) => [index('accounts_plan_id_idx').on(t.planId)],
);
