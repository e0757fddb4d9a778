/** Formatters made so far, by locale and digits (making one costs far more than using one). */
const made: Record<string, Intl.NumberFormat> = {};

/** Minor units (cents) as the plan's currency shows them: "$29", "$9.50" (spec: price / 100). */
export function formatMoney(minor: number, symbol: string, locale: string): string {
  const amount = minor / 100;
  const digits = Number.isInteger(amount) ? 0 : 2;
  // What `amount.toLocaleString(locale, options)` would make on each call.
  const format = (made[locale + digits] ??= new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: 2,
  }));
  return `${symbol}${format.format(amount)}`;
}
