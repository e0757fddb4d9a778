import i18n from '@/lib/i18n';

/**
 * Formatters made so far, by locale and options. Making an `Intl.NumberFormat` costs far more than
 * using one (a fresh one per cell was most of the dashboard's render once its overview arrived, on
 * a throttled phone); they hold no state, so one per locale and options serves every caller.
 */
const made: Record<string, Intl.NumberFormat> = {};

/**
 * A number formatter for `locale` (the active language when omitted): its digits and separators
 * ("1,000" in English, "1.000" in Spanish). Grouping is always on: Spanish style leaves
 * four-digit numbers ungrouped, which reads as a different number next to "10.000" in the same
 * column.
 */
export function numberFormat(locale?: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const lang = locale || i18n.language || 'en';
  return (made[lang + JSON.stringify(options)] ??= new Intl.NumberFormat(lang, {
    useGrouping: 'always',
    ...options,
  } as Intl.NumberFormatOptions));
}

/** A count or amount in the active language's digits and separators. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return numberFormat(undefined, options).format(value);
}
