import { and, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { invoiceRefunds } from '../../../db/schema/invoice-refunds';
import { invoices } from '../../../db/schema/invoices';
import { billingNow } from '../clock';
import type { TBilling } from '../context';
import { reverseEarnings } from './ledger';

/*
 * Refunds and chargebacks of a caller's invoice (contract 5b): the money goes back to the caller,
 * and the providers' earnings from the invoice's marketplace lines are reversed in proportion.
 * `local` mode: the admin's `refund` command (the CLI). `stripe` mode: the same command refunds
 * through Stripe, and Stripe's refund and dispute webhooks apply what happened there.
 */

/** A refund that cannot be made: the invoice is not paid, or the amount does not fit. */
export class RefundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefundError';
  }
}

export interface TRefundApplied {
  invoiceId: string;
  number: string;
  /** The invoice's refunded total after this one (minor units). */
  refunded: number;
  total: number;
  /** False when this refund (its processor id) was applied before. */
  applied: boolean;
}

/** What has been refunded of the invoice so far (minor units; a won dispute counts back). */
async function refundedOf(db: TDb, invoiceId: string): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${invoiceRefunds.amount}), 0)::text` })
    .from(invoiceRefunds)
    .where(eq(invoiceRefunds.invoiceId, invoiceId));
  return Number(row?.sum ?? 0);
}

/**
 * Records a refund, chargeback or won dispute (negative `amount`) of a paid invoice and reverses
 * the matching earnings, in one transaction with the invoice row locked (two refunds of one
 * invoice never both pass its total). `providerRef` is unique: applied once.
 */
export async function applyRefund(
  b: Pick<TBilling, 'db'>,
  input: {
    invoiceId: string;
    kind: 'refund' | 'chargeback';
    amount: number;
    providerRef: string;
    reason: string;
  },
): Promise<TRefundApplied> {
  return b.db.transaction(async (tx) => {
    const [invoice] = await tx
      .select()
      .from(invoices)
      .where(eq(invoices.id, input.invoiceId))
      .for('update')
      .limit(1);
    if (!invoice || invoice.status !== 'paid') throw new RefundError('only a paid invoice can be refunded');
    const before = await refundedOf(tx, invoice.id);
    const result = { invoiceId: invoice.id, number: invoice.number, total: invoice.total };
    const [known] = await tx
      .select({ id: invoiceRefunds.id })
      .from(invoiceRefunds)
      .where(eq(invoiceRefunds.providerRef, input.providerRef))
      .limit(1);
    if (known) return { ...result, refunded: before, applied: false };
    const refunded = before + input.amount;
    if (!Number.isSafeInteger(input.amount) || input.amount === 0 || refunded > invoice.total || refunded < 0)
      throw new RefundError(`the invoice has ${invoice.total - before} left to refund`);
    const at = await billingNow(tx);
    const [row] = await tx
      .insert(invoiceRefunds)
      .values({
        invoiceId: invoice.id,
        kind: input.kind,
        amount: input.amount,
        providerRef: input.providerRef,
        reason: input.reason.slice(0, 500),
        createdAt: at,
      })
      .returning({ id: invoiceRefunds.id });
    await reverseEarnings(tx, {
      invoiceId: invoice.id,
      total: invoice.total,
      refunded,
      kind: input.kind,
      source: row!.id,
      at,
    });
    return { ...result, refunded, applied: true };
  });
}

/**
 * The admin's refund (`npm run cli -- refund INVOICE_NUMBER [AMOUNT]`): refunds `amount` minor
 * units (default: what is left) of a paid invoice to the card that paid it, through the processor
 * under a key named by the invoice and its refunded total (a repeated command with the same
 * figures refunds once), then applies it. A chargeback (`kind`) is the local processor's way to
 * simulate a dispute; Stripe reports real ones by webhook.
 */
export async function refundInvoice(
  b: TBilling,
  input: { number: string; amount: number | null; kind: 'refund' | 'chargeback'; reason: string },
): Promise<TRefundApplied> {
  const [invoice] = await b.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.number, input.number), eq(invoices.status, 'paid')))
    .limit(1);
  if (!invoice) throw new RefundError(`no paid invoice numbered ${input.number}`);
  const before = await refundedOf(b.db, invoice.id);
  const amount = input.amount ?? invoice.total - before;
  if (!Number.isSafeInteger(amount) || amount <= 0 || before + amount > invoice.total)
    throw new RefundError(`the invoice has ${invoice.total - before} left to refund`);
  if (!invoice.providerRef) throw new RefundError('nothing was charged for this invoice');
  if (input.kind === 'chargeback' && b.provider.name !== 'local')
    throw new RefundError('chargebacks come from the processor (its dispute webhook)');
  const key = `refund_${invoice.id}_${before}_${amount}`;
  const providerRef =
    input.kind === 'refund'
      ? await b.provider.refund({
          paymentRef: invoice.providerRef,
          amount,
          idempotencyKey: key,
          reason: input.reason,
        })
      : `dp_local_${invoice.id}_${before}`;
  return applyRefund(b, {
    invoiceId: invoice.id,
    kind: input.kind,
    amount,
    providerRef,
    reason: input.reason,
  });
}

/** The paid invoice a processor payment paid (Stripe's refund and dispute events name the payment). */
export async function invoiceOfPayment(db: TDb, paymentRef: string): Promise<string | null> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.providerRef, paymentRef))
    .limit(1);
  return row?.id ?? null;
}
