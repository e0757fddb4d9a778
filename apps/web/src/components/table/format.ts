/**
 * A table date: date plus time, to the second, never milliseconds (spec section 2). Values that are
 * not dates are returned as given.
 */
export function formatDateTime(value: unknown, locale = 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(String(value));
  if (typeof value === 'boolean' || Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(date);
}
