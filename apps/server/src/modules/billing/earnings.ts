import { desc, eq, sql } from 'drizzle-orm';
import type { TEarnings } from '@air/shared/schemas/marketplace';
import type { TDb } from '../../db/client';
import { marketplaceCharges } from '../../db/schema/marketplace-charges';
import type { TBilling } from './context';

/**
 * A provider's earnings: the charges on other accounts' invoices for its routes, by month, route
 * and price (calls, paying accounts, gross, the platform fee and net). The same rows are the
 * callers' invoice lines, so what providers earn gross is exactly what callers are charged.
 */
export async function earningsOf(
  b: Pick<TBilling, 'plans' | 'platformFeePercent'> & { db: TDb },
  accountId: string,
): Promise<TEarnings> {
  const c = marketplaceCharges;
  const period = sql<string>`to_char(${c.createdAt} at time zone 'UTC', 'YYYY-MM')`;
  const rows = await b.db
    .select({
      period,
      routeName: c.routeName,
      pricePerCall: c.pricePerCall,
      pricePer1mInput: c.pricePer1mInput,
      pricePer1mOutput: c.pricePer1mOutput,
      calls: sql<number>`sum(${c.calls})::int`,
      paying: sql<number>`count(distinct ${c.callerAccountId})::int`,
      gross: sql<number>`sum(${c.amount})::float8`,
      fee: sql<number>`sum(${c.fee})::float8`,
    })
    .from(c)
    .where(eq(c.providerAccountId, accountId))
    .groupBy(period, c.routeName, c.pricePerCall, c.pricePer1mInput, c.pricePer1mOutput)
    .orderBy(desc(period), c.routeName);
  const plan = b.plans.find((p) => p.price > 0) ?? b.plans[0];
  return {
    fee_percent: b.platformFeePercent,
    currency: plan?.currency ?? 'usd',
    currency_symbol: plan?.currency_symbol ?? '$',
    rows: rows.map((row) => ({
      period: row.period,
      route_name: row.routeName,
      price: {
        per_call: row.pricePerCall,
        per_1m_input_tokens: row.pricePer1mInput,
        per_1m_output_tokens: row.pricePer1mOutput,
      },
      calls: Number(row.calls),
      paying_accounts: Number(row.paying),
      gross: Number(row.gross),
      fee: Number(row.fee),
      net: Number(row.gross) - Number(row.fee),
    })),
  };
}
