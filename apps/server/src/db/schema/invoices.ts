import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export interface TInvoiceLine {
  description: string;
  quantity: number;
  /** Minor units. */
  unitAmount: number;
  amount: number;
}

/** One invoice per charge; `total` in minor units. */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').notNull(),
    total: integer('total').notNull(),
    currency: text('currency').notNull(),
    lines: jsonb('lines').$type<TInvoiceLine[]>().notNull().default([]),
    providerRef: text('provider_ref'),
  },
  (t) => [
    uniqueIndex('invoices_number_unique').on(t.number),
    index('invoices_account_id_date_idx').on(t.accountId, t.date),
  ],
);
