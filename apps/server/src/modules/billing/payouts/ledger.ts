import { and, eq, ne, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { earningsLedger } from '../../../db/schema/earnings-ledger';
import { marketplaceCharges } from '../../../db/schema/marketplace-charges';

/*
 * The earnings ledger (contract 5b): what a provider has earned moves only here. A charge becomes
 * earnings when the caller's invoice carrying it is paid; a refund or chargeback of that invoice
 * reverses the matching part. Every row keeps gross - fee = net.
 */

/**
 * The caller's invoice was paid: each marketplace charge on it becomes the provider's earnings
 * (gross, fee, net), dated `at` (billing time). In the payment's own transaction; once per charge.
 */
export async function recordEarnings(tx: TDb, invoiceId: string, at: Date): Promise<void> {
  const charges = await tx
    .select()
    .from(marketplaceCharges)
    .where(eq(marketplaceCharges.invoiceId, invoiceId));
  if (charges.length === 0) return;
  await tx
    .insert(earningsLedger)
    .values(
      charges.map((charge) => ({
        providerAccountId: charge.providerAccountId,
        kind: 'earning' as const,
        chargeId: charge.id,
        invoiceId,
        source: 'earning',
        gross: charge.amount,
        fee: charge.fee,
        net: charge.amount - charge.fee,
        currency: charge.currency,
        createdAt: at,
      })),
    )
    .onConflictDoNothing();
}

/**
 * `part` of `whole` scaled by `numerator / denominator`, rounded half up, exactly (BigInt: minor
 * units times minor units may pass a safe integer). `numerator === denominator` gives `part`.
 */
export function share(part: number, numerator: number, denominator: number): number {
  if (denominator <= 0 || numerator <= 0) return 0;
  const scaled = BigInt(part) * BigInt(numerator) * 2n + BigInt(denominator);
  return Number(scaled / (BigInt(denominator) * 2n));
}

/**
 * A refund or chargeback moved the invoice's refunded total to `refunded` of `total`: each of its
 * charges is reversed in the same proportion (its gross and its fee, each rounded once), less what
 * earlier reversals of that charge already took. Working from the running total, not from each
 * refund alone, means a full refund reverses each charge exactly, whatever came before. One ledger
 * row per charge and refund (`source`), in the refund's transaction.
 */
export async function reverseEarnings(
  tx: TDb,
  input: {
    invoiceId: string;
    total: number;
    refunded: number;
    kind: 'refund' | 'chargeback';
    source: string;
    at: Date;
  },
): Promise<void> {
  const charges = await tx
    .select()
    .from(marketplaceCharges)
    .where(eq(marketplaceCharges.invoiceId, input.invoiceId));
  for (const charge of charges) {
    const [taken] = await tx
      .select({
        gross: sql<string>`coalesce(sum(${earningsLedger.gross}), 0)::text`,
        fee: sql<string>`coalesce(sum(${earningsLedger.fee}), 0)::text`,
      })
      .from(earningsLedger)
      .where(and(eq(earningsLedger.chargeId, charge.id), ne(earningsLedger.kind, 'earning')));
    // Reversals so far are negative: what they took back is their opposite.
    const gross = share(charge.amount, input.refunded, input.total) + Number(taken?.gross ?? 0);
    const fee = share(charge.fee, input.refunded, input.total) + Number(taken?.fee ?? 0);
    if (gross === 0 && fee === 0) continue;
    await tx
      .insert(earningsLedger)
      .values({
        providerAccountId: charge.providerAccountId,
        kind: input.kind,
        chargeId: charge.id,
        invoiceId: input.invoiceId,
        source: input.source,
        gross: -gross,
        fee: -fee,
        net: fee - gross,
        currency: charge.currency,
        createdAt: input.at,
      })
      .onConflictDoNothing();
  }
}
