import i18n from '@/lib/i18n';

/*
 * The console's one way of writing dates (issue 38: two formats side by side, "03/14/2026, 09:05:07"
 * in tables and "March 14, 2026" or "Mar 14, 2026, 9:05 AM" elsewhere). The date is always the
 * medium form of the language ("Mar 14, 2026", "14 mar 2026"); a moment adds the time on a 24-hour
 * clock to the second, never milliseconds (spec section 2: dates in tables show date plus time);
 * the short forms drop what their place makes plain (the year on a 30-day chart, the day in a
 * monthly heading). Moments are in the browser's time zone; a bare calendar day (`2026-03-14`, as
 * the server sends the days of its roll-ups) is that day wherever the browser is.
 */

const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

const BARE_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The date a value holds, or null (empty, or not a date). */
function toDate(value: unknown): Date | null {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean') return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Formatters made so far, by locale and options: making an `Intl.DateTimeFormat` costs far more
 * than using one (a table of a hundred dates made a hundred), and they hold no state. A moment's
 * formatter keeps the browser's time zone from when it was made.
 */
const made: Record<string, Intl.DateTimeFormat> = {};

function format(value: unknown, locale: string | undefined, options: Intl.DateTimeFormatOptions): string {
  const date = toDate(value);
  if (!date) return value === null || value === undefined ? '' : String(value);
  // A bare day is midnight UTC: shown in UTC, it is the same day west of Greenwich too.
  const shown = typeof value === 'string' && BARE_DAY.test(value) ? { ...options, timeZone: 'UTC' } : options;
  const lang = locale || i18n.language || 'en';
  return (made[lang + JSON.stringify(shown)] ??= new Intl.DateTimeFormat(lang, shown)).format(date);
}

/** A moment: "Mar 14, 2026, 09:05:07" / "14 mar 2026, 09:05:07". Non-dates are returned as given. */
export function formatDateTime(value: unknown, locale?: string): string {
  return format(value, locale, { ...DAY, ...TIME });
}

/** A day: "Mar 14, 2026" / "14 mar 2026". */
export function formatDay(value: unknown, locale?: string): string {
  return format(value, locale, DAY);
}

/** A day where the year is plain (a chart of the last 30 days, "since" this period): "Mar 14". */
export function formatShortDay(value: unknown, locale?: string): string {
  return format(value, locale, { month: 'short', day: 'numeric' });
}

/** A month (a period heading): "March 2026" / "marzo de 2026". `2026-03` is read as that month. */
export function formatMonth(period: string, locale?: string): string {
  const value = /^\d{4}-\d{2}$/.test(period) ? `${period}-01` : period;
  return format(value, locale, { year: 'numeric', month: 'long' });
}

/**
 * The date field's button, in the long form the spec asks of the date input ("shows the date in
 * long form", section 4): "March 14, 2026". The one place the console writes the month in full.
 */
export function formatLongDay(value: unknown, locale?: string): string {
  return format(value, locale, { dateStyle: 'long' });
}
