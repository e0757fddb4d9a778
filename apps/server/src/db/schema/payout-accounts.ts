import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/**
 * Where an account's payouts go: a bank account (IBAN or US routing and account number, of which
 * only the holder, the country and the last four digits are kept) or a Stripe Connect Express
 * account (`stripe_account_id`, `ready` once it can receive transfers).
 */
export const payoutAccounts = pgTable('payout_accounts', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  method: text('method').$type<'iban' | 'us_bank' | 'stripe'>().notNull(),
  holderName: text('holder_name'),
  country: text('country'),
  last4: text('last4'),
  stripeAccountId: text('stripe_account_id'),
  ready: boolean('ready').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
