import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/*
 * Tables of the billing module (apps/server/src/billing). The subscription engine (periods,
 * seats, prorations, invoices, renewals, dunning) is the server's own for both providers; the
 * provider only keeps customers, cards and payments.
 */

/** The account's customer at the billing provider (`cus_…`). */
export const billingCustomers = pgTable('billing_customers', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  customerRef: text('customer_ref').notNull(),
});

/**
 * One row per account while a billing write runs: a lease that serialises an account's billing
 * changes across requests and instances without holding a transaction over a processor call.
 */
export const billingLocks = pgTable('billing_locks', {
  accountId: uuid('account_id').primaryKey(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});

/** The billing test clock (one row, id 1): an offset added to real time, moved by the CLI outside production. */
export const billingClock = pgTable('billing_clock', {
  id: integer('id').primaryKey(),
  offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
});

/** Webhook events already applied (Stripe event ids): a replayed event is applied once. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/*
 * The local card processor's own records (BILLING_PROVIDER=local), shaped like the provider's
 * objects. The card number is never stored: only brand, last four, expiry and the test-card
 * behaviour it selects.
 */
export const LOCAL_CARD_BEHAVIOURS = [
  'succeed',
  'authenticate',
  'decline',
  'insufficient_funds',
  'attach_then_fail',
] as const;
export type TLocalCardBehaviour = (typeof LOCAL_CARD_BEHAVIOURS)[number];

export const localCustomers = pgTable('local_customers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const localCardTokens = pgTable('local_card_tokens', {
  id: text('id').primaryKey(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  behaviour: text('behaviour').$type<TLocalCardBehaviour>().notNull(),
  /**
   * The account whose session made the token: only that account may attach it (null: a token made
   * before tokens were bound, which nobody may attach).
   */
  accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
  /** The payment method the token became (single use: a second attach answers the same one). */
  paymentMethodId: text('payment_method_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const localPaymentMethods = pgTable(
  'local_payment_methods',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localCustomers.id, { onDelete: 'cascade' }),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    behaviour: text('behaviour').$type<TLocalCardBehaviour>().notNull(),
    /** Set once the card holder completed 3-D Secure for a payment with it. */
    authenticated: timestamp('authenticated', { withTimezone: true }),
    detachedAt: timestamp('detached_at', { withTimezone: true }),
  },
  (t) => [index('local_payment_methods_customer_idx').on(t.customerId)],
);

export const localPaymentIntents = pgTable(
  'local_payment_intents',
  {
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    customerId: text('customer_id').notNull(),
    paymentMethodId: text('payment_method_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    status: text('status').notNull(),
    errorCode: text('error_code'),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('local_payment_intents_customer_idx').on(t.customerId)],
);
