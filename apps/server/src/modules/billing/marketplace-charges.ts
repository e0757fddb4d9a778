import { eq } from 'drizzle-orm';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TDb } from '../../db/client';
import type { TInvoiceLine } from '../../db/schema/invoices';
import { marketplaceCharges } from '../../db/schema/marketplace-charges';
import { microsToAmount } from '@air/shared/schemas/price';
import { platformFee } from '../money/service';
import { unbilledSpendBefore, type TBilledCalls } from '../usage/service';
import type { TBilling } from './context';
import { customerFor, type TInvoiceRow, type TSubscriptionRow } from './records';

/*
 * A renewal's marketplace part: the last period's priced calls become invoice lines (one per
 * route and price) and charge rows that name the provider's earnings and the platform's fee.
 */

export async function hasUnbilledCalls(b: TBilling, accountId: string, cutoff: Date): Promise<boolean> {
  return (await unbilledSpendBefore(b.db, accountId, cutoff)) > 0;
}

async function hasCharges(db: TDb, invoiceId: string): Promise<boolean> {
  const [charge] = await db
    .select({ id: marketplaceCharges.id })
    .from(marketplaceCharges)
    .where(eq(marketplaceCharges.invoiceId, invoiceId))
    .limit(1);
  return !!charge;
}

/** The invoice carries marketplace charges, and its lines add up to its total. */
export async function withMarketplaceLines(b: TBilling, invoice: TInvoiceRow): Promise<boolean> {
  if (!b.provider.chargeInvoice) return false;
  return (
    (await hasCharges(b.db, invoice.id)) &&
    invoice.lines.reduce((sum, line) => sum + line.amount, 0) === invoice.total
  );
}

/**
 * A renewal with marketplace lines was charged as the processor's own invoice (Stripe); once AIR
 * settles it another way, that invoice is closed so it can never be paid a second time: voided
 * when `paidBy` (a payment of a new card, say) paid it, marked uncollectible when the dunning
 * gave up (`paidBy` null). A failure is logged, not thrown: the AIR invoice stands, and the
 * processor's invoice does not charge by itself (it is made with auto-advance off).
 */
export async function closeProcessorInvoice(
  b: TBilling,
  accountId: string,
  invoiceId: string,
  paidBy: string | null,
): Promise<void> {
  if (!b.provider.closeInvoice || !(await hasCharges(b.db, invoiceId))) return;
  try {
    await b.provider.closeInvoice(await customerFor(b, accountId), invoiceId, paidBy);
  } catch (error) {
    b.log.error({ err: error, accountId, invoiceId }, "closing the processor's copy of an invoice failed");
  }
}

/** An invoice line for one route at one price: the calls, tokens and price it used, and the amount. */
export function marketplaceLine(plan: TPlan, group: TBilledCalls): TInvoiceLine {
  // Prices are micros: shown with up to 6 decimals (0.002/call), amounts in minor units.
  const m = (micros: number) => `${plan.currency_symbol}${microsToAmount(micros)}`;
  const price = [
    `${m(group.pricePerCall)}/call`,
    `${m(group.pricePer1mInput)}/1M input tokens`,
    `${m(group.pricePer1mOutput)}/1M output tokens`,
  ].join(', ');
  return {
    description:
      `Marketplace: ${group.routeName ?? 'deleted route'}, ${group.calls} calls, ` +
      `${group.promptTokens} input + ${group.completionTokens} output tokens at ${price}`,
    quantity: 1,
    unitAmount: group.amount,
    amount: group.amount,
  };
}

/** The charge rows of one renewal invoice, written in the renewal's transaction. */
export async function recordCharges(
  db: TDb,
  {
    sub,
    plan,
    invoiceId,
    feePercent,
  }: { sub: TSubscriptionRow; plan: TPlan; invoiceId: string; feePercent: number },
  groups: TBilledCalls[],
): Promise<void> {
  if (groups.length === 0) return;
  await db.insert(marketplaceCharges).values(
    groups.map((group) => ({
      id: group.chargeId,
      callerAccountId: sub.accountId,
      providerAccountId: group.providerAccountId,
      endpointId: group.endpointId,
      routeName: group.routeName ?? 'deleted route',
      invoiceId,
      pricePerCall: group.pricePerCall,
      pricePer1mInput: group.pricePer1mInput,
      pricePer1mOutput: group.pricePer1mOutput,
      calls: group.calls,
      promptTokens: group.promptTokens,
      completionTokens: group.completionTokens,
      amount: group.amount,
      fee: platformFee(group.amount, feePercent),
      currency: plan.currency,
      periodStart: sub.currentPeriodStart,
      periodEnd: sub.currentPeriodEnd,
    })),
  );
}
