import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A provider's earnings as they move (contract 5b): one `earning` row per marketplace charge when
 * the caller's invoice carrying it is paid, and one `refund` or `chargeback` row (negative) each
 * time a refund or dispute of that invoice reverses part of it. `gross - fee = net` on every row;
 * a payout takes the rows it pays (`payout_id`). So charges = earnings + fee, and earnings = paid +
 * pending + balance, are sums of these rows. No foreign keys: financial records outlive accounts.
 */
export const earningsLedger = pgTable(
  'earnings_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerAccountId: uuid('provider_account_id').notNull(),
    kind: text('kind').$type<'earning' | 'refund' | 'chargeback'>().notNull(),
    chargeId: uuid('charge_id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    /** What moved it: `earning` for the charge itself, else the invoice_refunds row's id. */
    source: text('source').notNull(),
    /** Minor units, signed: the caller's charge, the platform's fee, the provider's part. */
    gross: integer('gross').notNull(),
    fee: integer('fee').notNull(),
    net: integer('net').notNull(),
    currency: text('currency').notNull(),
    /** Billing time (the test clock's) when it moved: the month a payout closes over. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    payoutId: uuid('payout_id'),
  },
  (t) => [
    // One row per charge and cause: an invoice paid twice or a webhook replayed moves nothing again.
    uniqueIndex('earnings_ledger_charge_source_unique').on(t.chargeId, t.source),
    index('earnings_ledger_provider_idx').on(t.providerAccountId, t.payoutId, t.createdAt),
  ],
);
