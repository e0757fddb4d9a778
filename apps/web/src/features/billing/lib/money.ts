/** Minor units (cents) as the plan's currency shows them: "$29", "$9.50" (spec: price / 100). */
export function formatMoney(minor: number, symbol: string, locale: string): string {
  const amount = minor / 100;
  const digits = Number.isInteger(amount) ? 0 : 2;
  return `${symbol}${amount.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: 2 })}`;
}
