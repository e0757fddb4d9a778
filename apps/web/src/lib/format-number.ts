import i18n from '@/lib/i18n';

/**
 * A number formatter for `locale` (the active language when omitted): its digits and separators
 * ("1,000" in English, "1.000" in Spanish). Grouping is always on: Spanish style leaves
 * four-digit numbers ungrouped, which reads as a different number next to "10.000" in the same
 * column.
 */
export function numberFormat(locale?: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return new Intl.NumberFormat(locale || i18n.language || 'en', {
    useGrouping: 'always',
    ...options,
  } as Intl.NumberFormatOptions);
}

/** A count or amount in the active language's digits and separators. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return numberFormat(undefined, options).format(value);
}
