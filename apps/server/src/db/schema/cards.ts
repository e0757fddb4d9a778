import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

/** The account's card: only brand, last four digits and expiry are ever stored. */
export const cards = pgTable('cards', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  providerRef: text('provider_ref'),
});
