import { microsToAmount, type TPrice } from '@air/shared/schemas/price';

/** Minor units of a two-decimal currency as money (`$0.05`), in the page's language. */
export function formatMinor(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(minor / 100);
}

/**
 * A price part in micros (millionths of the main unit, decision 043) as money with 2 to 6
 * decimals (`$0.002`, `$1.50`), in the page's language.
 */
export function formatMicros(micros: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: 2,
    maximumFractionDigits: 6,
  }).format(microsToAmount(micros) as Intl.StringNumericLiteral);
}

/** The parts of a price worth showing (a zero part is left out), as [key, amount] pairs. */
export function priceParts(price: TPrice): Array<['perCall' | 'perInput' | 'perOutput', number]> {
  const parts: Array<['perCall' | 'perInput' | 'perOutput', number]> = [
    ['perCall', price.per_call],
    ['perInput', price.per_1m_input_tokens],
    ['perOutput', price.per_1m_output_tokens],
  ];
  return parts.filter(([, amount]) => amount > 0);
}

/** A 0-1 rate as a percentage with at most one decimal (`99.5%`). */
export function formatRate(rate: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(rate);
}
