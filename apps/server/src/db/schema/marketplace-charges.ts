import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One line of a caller's renewal invoice for calls to another account's priced endpoint: the
 * calls of one route at one price in one billing period, rounded once to the minor unit
 * (`amount`). The provider's earnings are these same rows (gross = amount, fee, net = amount -
 * fee), so what callers are charged and what providers earn are one set of numbers. No foreign
 * keys: a charge is a financial record and outlives the accounts and endpoints it names.
 */
export const marketplaceCharges = pgTable(
  'marketplace_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    callerAccountId: uuid('caller_account_id').notNull(),
    providerAccountId: uuid('provider_account_id').notNull(),
    endpointId: uuid('endpoint_id').notNull(),
    routeName: text('route_name').notNull(),
    /** The invoice that carries it (null until the renewal that bills it writes one). */
    invoiceId: uuid('invoice_id'),
    /** The price the calls used (micros). */
    pricePerCall: integer('price_per_call').notNull(),
    pricePer1mInput: integer('price_per_1m_input').notNull(),
    pricePer1mOutput: integer('price_per_1m_output').notNull(),
    calls: integer('calls').notNull(),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull(),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull(),
    /** Minor units: the calls' exact cost (picos) rounded once, half up (modules/money). */
    amount: integer('amount').notNull(),
    /** The platform's part of `amount` (PLATFORM_FEE_PERCENT, rounded once). */
    fee: integer('fee').notNull(),
    currency: text('currency').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('marketplace_charges_caller_idx').on(t.callerAccountId, t.createdAt),
    index('marketplace_charges_provider_idx').on(t.providerAccountId, t.createdAt),
    index('marketplace_charges_invoice_idx').on(t.invoiceId),
  ],
);
