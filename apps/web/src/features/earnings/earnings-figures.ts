import type { TEarnings, TEarningsRow } from '@air/shared/schemas/marketplace';
import { microsToAmount, type TPrice } from '@air/shared/schemas/price';
import { csvText } from '@/lib/csv';
import { numberFormat } from '@/lib/format-number';

/** The period picker's choice covering every month of the statement. */
export const ALL_PERIODS = 'all';

/** Digits after the point of the billing currency's minor unit (AIR's currencies all have two). */
const MINOR_DIGITS = 2;

/**
 * Minor units as a decimal string (`123456` → `"1234.56"`), with integer arithmetic only: the one
 * place an amount leaves minor units, read by both the page and the CSV, so they never disagree.
 */
export function minorToDecimal(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an amount in minor units: ${minor}`);
  const digits = String(Math.abs(minor)).padStart(MINOR_DIGITS + 1, '0');
  const whole = digits.slice(0, -MINOR_DIGITS);
  return `${minor < 0 ? '-' : ''}${whole}.${digits.slice(-MINOR_DIGITS)}`;
}

/** An amount in the page's language (`$1,234.56`, `1.234,56 US$`) from its exact decimal string. */
export function formatAmount(minor: number, currency: string, locale: string): string {
  const format = numberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: MINOR_DIGITS,
    maximumFractionDigits: MINOR_DIGITS,
  });
  // Intl formats a decimal string exactly (no binary fraction in between).
  return format.format(minorToDecimal(minor) as Intl.StringNumericLiteral);
}

/** The months the statement has rows for, newest first. */
export function earningPeriods(data: TEarnings): string[] {
  return [...new Set(data.rows.map((row) => row.period))].sort().reverse();
}

/** The rows of one month, or of every month for ALL_PERIODS. */
export function rowsOf(data: TEarnings, period: string): TEarningsRow[] {
  return period === ALL_PERIODS ? data.rows : data.rows.filter((row) => row.period === period);
}

export interface TEarningsTotals {
  calls: number;
  gross: number;
  fee: number;
  net: number;
}

/**
 * Sums of the lines shown. Paying accounts are not summed: one account paying for two routes is
 * still one account, and the rows do not say which accounts they hold.
 */
export function totalsOf(rows: TEarningsRow[]): TEarningsTotals {
  return rows.reduce(
    (sum, row) => ({
      calls: sum.calls + row.calls,
      gross: sum.gross + row.gross,
      fee: sum.fee + row.fee,
      net: sum.net + row.net,
    }),
    { calls: 0, gross: 0, fee: 0, net: 0 },
  );
}

/** A price as the CSV holds it: its three parts (micros) as decimals of the currency, up to 6. */
function priceCells(price: TPrice): string[] {
  return [price.per_call, price.per_1m_input_tokens, price.per_1m_output_tokens].map(microsToAmount);
}

/**
 * The statement shown, as CSV: one line per month, route and price, then the totals. Amounts are
 * decimals of the currency with a point (`1234.56`, the same in every language, so a spreadsheet
 * reads them as numbers) next to the currency's code; the price parts are per call and per million
 * input and output tokens.
 */
export function earningsCsv(data: TEarnings, period: string): string {
  const rows = rowsOf(data, period);
  const totals = totalsOf(rows);
  const currency = data.currency.toUpperCase();
  return csvText([
    [
      'period',
      'route',
      'price_per_call',
      'price_per_1m_input_tokens',
      'price_per_1m_output_tokens',
      'calls',
      'paying_accounts',
      'gross',
      'platform_fee',
      'net',
      'currency',
    ],
    ...rows.map((row) => [
      row.period,
      row.route_name,
      ...priceCells(row.price),
      row.calls,
      row.paying_accounts,
      minorToDecimal(row.gross),
      minorToDecimal(row.fee),
      minorToDecimal(row.net),
      currency,
    ]),
    [
      period,
      'total',
      null,
      null,
      null,
      totals.calls,
      null,
      minorToDecimal(totals.gross),
      minorToDecimal(totals.fee),
      minorToDecimal(totals.net),
      currency,
    ],
  ]);
}
