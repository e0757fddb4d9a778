import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { plans } from './plans';

export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'requires_payment_method',
  'requires_action',
  'canceled',
] as const;
export type TSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** One subscription per account (server contract section 7 state machine). */
export const subscriptions = pgTable('subscriptions', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  planId: text('plan_id')
    .notNull()
    .references(() => plans.id),
  status: text('status').$type<TSubscriptionStatus>().notNull(),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  seats: integer('seats').notNull().default(1),
  /** Minor units. */
  seatPrice: integer('seat_price').notNull().default(0),
  currencySymbol: text('currency_symbol').notNull(),
  interval: text('interval').notNull(),
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
  providerRef: text('provider_ref'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
