import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { TPayout, TPayoutLine, TPayouts } from '@air/shared/schemas/payout';
import type { TDb } from '../../../db/client';
import { earningsLedger } from '../../../db/schema/earnings-ledger';
import { invoices } from '../../../db/schema/invoices';
import { marketplaceCharges } from '../../../db/schema/marketplace-charges';
import { payouts } from '../../../db/schema/payouts';
import { platformFee } from '../../money/service';
import { unbilledEarningsOf } from '../../usage/service';
import type { TBilling } from '../context';
import { payoutAccountOf } from './payout-account';
import { statementToken } from './statement-token';

type TPayoutRow = typeof payouts.$inferSelect;

/** The statement lines of the account's payouts, by payout: ledger rows grouped by kind, route and month. */
async function linesOf(db: TDb, accountId: string): Promise<Map<string, TPayoutLine[]>> {
  const l = earningsLedger;
  const c = marketplaceCharges;
  const month = sql<string>`to_char(${l.createdAt} at time zone 'UTC', 'YYYY-MM')`;
  const grouped = await db
    .select({
      payoutId: l.payoutId,
      kind: l.kind,
      routeName: c.routeName,
      month,
      calls: sql<number>`sum(case when ${l.kind} = 'earning' then ${c.calls} else 0 end)::int`,
      gross: sql<string>`sum(${l.gross})::text`,
      fee: sql<string>`sum(${l.fee})::text`,
      net: sql<string>`sum(${l.net})::text`,
    })
    .from(l)
    .innerJoin(c, eq(c.id, l.chargeId))
    .where(and(eq(l.providerAccountId, accountId), sql`${l.payoutId} is not null`))
    .groupBy(l.payoutId, l.kind, c.routeName, month)
    .orderBy(month, c.routeName, l.kind);
  const byPayout = new Map<string, TPayoutLine[]>();
  for (const row of grouped) {
    const list = byPayout.get(row.payoutId!) ?? [];
    list.push({
      kind: row.kind,
      route_name: row.routeName,
      month: row.month,
      calls: Number(row.calls),
      gross: Number(row.gross),
      fee: Number(row.fee),
      net: Number(row.net),
    });
    byPayout.set(row.payoutId!, list);
  }
  return byPayout;
}

export function payoutWire(row: TPayoutRow, lines: TPayoutLine[], secret: string): TPayout {
  const token = statementToken(secret, row.id);
  const base = `/api/account/payouts/${row.id}`;
  return {
    id: row.id,
    period: row.period,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    waiting: row.status === 'pending' ? row.waiting : null,
    destination: row.destination,
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    lines,
    statement_pdf: `${base}/pdf?token=${token}`,
    statement_csv: `${base}/csv?token=${token}`,
  };
}

async function sumOf(db: TDb, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await db.execute(query)) as { rows: { sum: string | null }[] };
  return Number(result.rows[0]?.sum ?? 0);
}

/**
 * `GET /api/account/payouts` (owner): the provider's balance, what it has accrued and what its
 * callers still owe, its pending and paid payouts, each with its statement lines, and where
 * payouts go. Every figure is a sum of integer minor units (the ledger, the payouts) except
 * `accrued`, the calls not invoiced yet: their exact cost rounded once, less the fee on it.
 */
export async function payoutsOf(b: TBilling, accountId: string, secret: string): Promise<TPayouts> {
  const [list, lines, account, unbilled] = await Promise.all([
    b.db.select().from(payouts).where(eq(payouts.providerAccountId, accountId)).orderBy(desc(payouts.period)),
    linesOf(b.db, accountId),
    payoutAccountOf(b, accountId),
    unbilledEarningsOf(b.db, accountId),
  ]);
  const l = earningsLedger;
  const balance = await sumOf(
    b.db,
    sql`select sum(${l.net})::text as sum from ${l}
      where ${and(eq(l.providerAccountId, accountId), isNull(l.payoutId))}`,
  );
  const c = marketplaceCharges;
  const uncollected = await sumOf(
    b.db,
    sql`select sum(${c.amount} - ${c.fee})::text as sum from ${c} join ${invoices} on ${invoices.id} = ${c.invoiceId}
      where ${and(eq(c.providerAccountId, accountId), eq(invoices.status, 'open'))}`,
  );
  const plan = b.plans.find((p) => p.price > 0) ?? b.plans[0];
  const total = (status: TPayoutRow['status']) =>
    list.filter((row) => row.status === status).reduce((sum, row) => sum + row.amount, 0);
  return {
    currency: plan?.currency ?? 'usd',
    currency_symbol: plan?.currency_symbol ?? '$',
    minimum: b.payoutMinimum,
    balance,
    accrued: unbilled - platformFee(unbilled, b.platformFeePercent),
    uncollected,
    pending: total('pending'),
    paid: total('paid'),
    provider: b.provider.name,
    account,
    payouts: list.map((row) => payoutWire(row, lines.get(row.id) ?? [], secret)),
  };
}

/** One payout of the account with its lines (null when it is not the account's). */
export async function payoutOf(
  b: TBilling,
  accountId: string | null,
  id: string,
): Promise<{ row: TPayoutRow; lines: TPayoutLine[] } | null> {
  const [row] = await b.db
    .select()
    .from(payouts)
    .where(accountId ? and(eq(payouts.id, id), eq(payouts.providerAccountId, accountId)) : eq(payouts.id, id))
    .limit(1);
  if (!row) return null;
  const lines = await linesOf(b.db, row.providerAccountId);
  return { row, lines: lines.get(row.id) ?? [] };
}
