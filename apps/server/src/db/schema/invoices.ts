import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

export interface TInvoiceLine {
  description: string;
  quantity: number;
  /** Minor units. */
  unitAmount: number;
  amount: number;
  /** The seats a plan line charges for (the invoice PDF names them); absent on other lines. */
  seats?: number;
}

/** One invoice per charge; `total` in minor units. */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the account is closed: invoices are financial records and stay. */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The organisation billed, as it was named when the invoice was written. */
    accountName: text('account_name').notNull().default(''),
    number: text('number').notNull(),
    date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').notNull(),
    total: integer('total').notNull(),
    currency: text('currency').notNull(),
    lines: jsonb('lines').$type<TInvoiceLine[]>().notNull().default([]),
    currencySymbol: text('currency_symbol').notNull().default('$'),
    /** The processor payment (`pi_…`) that paid it: unique, so one payment is applied once. */
    providerRef: text('provider_ref'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_number_unique').on(t.number),
    uniqueIndex('invoices_provider_ref_unique').on(t.providerRef),
    index('invoices_account_id_date_idx').on(t.accountId, t.date),
  ],
);
