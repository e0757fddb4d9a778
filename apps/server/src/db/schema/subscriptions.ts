import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { plans } from './plans';

import { SUBSCRIPTION_STATUSES, type TSubscriptionStatus } from '@air/shared/schemas/billing';

export { SUBSCRIPTION_STATUSES, type TSubscriptionStatus };

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
  /** Minor units owed (+) or credited (-) on the next invoice: seat changes and paid-plan downgrades, prorated. */
  prorationBalance: integer('proration_balance').notNull().default(0),
  /** Failed charges of the open renewal invoice (dunning: retry after 1 and 3 days, then cancel). */
  failedAttempts: integer('failed_attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  /** The renewal job's lease (real time): one instance works a due subscription at a time. */
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  /** Bumped by every billing change; part of the derived idempotency key of a charge. */
  version: integer('version').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
