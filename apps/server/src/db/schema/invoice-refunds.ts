import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Money returned to a caller on one of its paid invoices: a refund (the admin's refund command,
 * or Stripe's refund), a chargeback (a dispute the card holder opened) or a chargeback's reversal
 * when the dispute is won (`amount` negative). `provider_ref` is the processor's id (`re_…`,
 * `dp_…`), unique, so a replayed webhook or a repeated command applies it once.
 */
export const invoiceRefunds = pgTable(
  'invoice_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id').notNull(),
    kind: text('kind').$type<'refund' | 'chargeback'>().notNull(),
    /** Minor units of the invoice's currency; negative for a dispute won back. */
    amount: integer('amount').notNull(),
    providerRef: text('provider_ref').notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('invoice_refunds_provider_ref_unique').on(t.providerRef),
    index('invoice_refunds_invoice_idx').on(t.invoiceId),
  ],
);
