import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import { billingCustomers } from '../../db/schema/billing';
import { cards } from '../../db/schema/cards';
import { invoices, type TInvoiceLine } from '../../db/schema/invoices';
import { plans as plansTable } from '../../db/schema/plans';
import { subscriptions } from '../../db/schema/subscriptions';
import { accountSummary } from '../membership/service';
import type { TBilling } from './context';
import type { TCardDetails } from './provider';

/** Reads and writes of the billing module's rows, shared by the plan change, card and renewal paths. */

export type TSubscriptionRow = typeof subscriptions.$inferSelect;
export type TInvoiceRow = typeof invoices.$inferSelect;

export async function loadSubscription(db: TDb, accountId: string): Promise<TSubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.accountId, accountId)).limit(1);
  return row ?? null;
}

export async function loadCard(db: TDb, accountId: string) {
  const [row] = await db.select().from(cards).where(eq(cards.accountId, accountId)).limit(1);
  return row ?? null;
}

/** A plan by id: the offered ones first, then the table (a plan removed from the file still binds). */
export async function planById(db: TDb, offered: TPlan[], id: string): Promise<TPlan | null> {
  const plan = offered.find((p) => p.id === id);
  if (plan) return plan;
  const [row] = await db.select().from(plansTable).where(eq(plansTable.id, id)).limit(1);
  return row ? planOfRow(row) : null;
}

/** A row of the plans table as the plans file spells a plan. */
export function planOfRow(row: typeof plansTable.$inferSelect): TPlan {
  return {
    id: row.id,
    name: row.name,
    price: row.price,
    currency: row.currency,
    currency_symbol: row.currencySymbol,
    interval: row.interval as TPlan['interval'],
    type: row.type as TPlan['type'],
    quota_calls_month: row.quotaCallsMonth,
    rate_limit_per_minute: row.rateLimitPerMinute,
    tokens_per_minute: row.tokensPerMinute ?? null,
    sort: row.sort,
  };
}

/** Seats billed: one per member on a per-seat (tiered) plan, one otherwise. */
export function seatsFor(plan: TPlan, members: number): number {
  return plan.type === 'tiered' ? Math.max(1, members) : 1;
}

/** The account's customer at the provider, created on first use. */
export async function customerFor(b: TBilling, accountId: string): Promise<string> {
  const [row] = await b.db
    .select()
    .from(billingCustomers)
    .where(and(eq(billingCustomers.accountId, accountId), eq(billingCustomers.provider, b.provider.name)))
    .limit(1);
  if (row) return row.customerRef;
  const ref = await b.provider.createCustomer({
    accountId,
    name: (await accountSummary(b.db, accountId))?.name ?? '',
  });
  await b.db
    .insert(billingCustomers)
    .values({ accountId, provider: b.provider.name, customerRef: ref })
    .onConflictDoUpdate({
      target: billingCustomers.accountId,
      set: { provider: b.provider.name, customerRef: ref },
    });
  return ref;
}

export async function saveCard(db: TDb, accountId: string, paymentMethodRef: string, card: TCardDetails) {
  const values = {
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    providerRef: paymentMethodRef,
  };
  await db
    .insert(cards)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: cards.accountId, set: values });
}

/** Writes an invoice with the next number of the account (`INV-XXXXXXXX-0001`). */
export async function insertInvoice(
  db: TDb,
  input: {
    accountId: string;
    status: 'paid' | 'open';
    lines: TInvoiceLine[];
    plan: TPlan;
    date: Date;
    providerRef: string | null;
  },
): Promise<TInvoiceRow | null> {
  const [numbered] = await db
    .select({ n: count() })
    .from(invoices)
    .where(sql`${invoices.number} like ${`INV-${input.accountId.slice(0, 8).toUpperCase()}-%`}`);
  const number = `INV-${input.accountId.slice(0, 8).toUpperCase()}-${String(Number(numbered?.n ?? 0) + 1).padStart(4, '0')}`;
  const total = input.lines.reduce((sum, line) => sum + line.amount, 0);
  const [row] = await db
    .insert(invoices)
    .values({
      accountId: input.accountId,
      accountName: (await accountSummary(db, input.accountId))?.name ?? '',
      number,
      date: input.date,
      status: input.status,
      total,
      currency: input.plan.currency,
      currencySymbol: input.plan.currency_symbol,
      lines: input.lines,
      providerRef: input.providerRef,
    })
    .onConflictDoNothing({ target: invoices.providerRef })
    .returning();
  return row ?? null;
}

export async function openInvoice(db: TDb, accountId: string): Promise<TInvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.accountId, accountId), eq(invoices.status, 'open')))
    .orderBy(desc(invoices.date))
    .limit(1);
  return row ?? null;
}
