import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A provider's payout of one month's close (contract 5b): the earnings ledger rows it pays carry
 * its id. Unique per provider and month, so a payout run that is repeated or races itself makes one.
 * `pending` until paid (no payout account yet, Connect onboarding incomplete, the processor down);
 * `paid` once the bank account was recorded as paid (local) or the Stripe transfer exists
 * (`provider_ref`, created under the idempotency key `air_payout_<id>`).
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerAccountId: uuid('provider_account_id').notNull(),
    /** `YYYY-MM`: the month whose close made it. */
    period: text('period').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<'pending' | 'paid'>().notNull().default('pending'),
    waiting: text('waiting').$type<'no_payout_account' | 'onboarding_incomplete' | 'processor_unavailable'>(),
    destination: text('destination'),
    providerRef: text('provider_ref'),
    /** A run paying it holds it until then (billing time), so two instances never pay it at once. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payouts_provider_period_unique').on(t.providerAccountId, t.period),
    index('payouts_status_idx').on(t.status),
  ],
);
