import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime, formatDay, formatLongDay, formatMonth, formatShortDay } from './format-date';
import { formatNumber, numberFormat } from './format-number';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

// 14 March 2026, 09:05:07.999 in the browser's zone.
const moment = new Date(2026, 2, 14, 9, 5, 7, 999);

describe('the console date (issue 38: one format)', () => {
  it('writes a moment as the medium date plus the time to the second, never milliseconds', () => {
    expect(formatDateTime(moment, 'en')).toBe('Mar 14, 2026, 09:05:07');
    expect(formatDateTime(moment.toISOString(), 'en')).toBe('Mar 14, 2026, 09:05:07');
    expect(formatDateTime(moment, 'es')).toBe('14 mar 2026, 09:05:07');
    // An afternoon on a 24-hour clock, in both languages.
    expect(formatDateTime(new Date(2026, 2, 14, 17, 0, 0), 'en')).toBe('Mar 14, 2026, 17:00:00');
  });

  it('writes a day as the same date, and the shorter forms with the same month', () => {
    expect(formatDay(moment, 'en')).toBe('Mar 14, 2026');
    expect(formatDay(moment, 'es')).toBe('14 mar 2026');
    expect(formatDateTime(moment, 'en').startsWith(formatDay(moment, 'en'))).toBe(true);
    expect(formatShortDay(moment, 'en')).toBe('Mar 14');
    expect(formatShortDay(moment, 'es')).toBe('14 mar');
    expect(formatMonth('2026-03', 'en')).toBe('March 2026');
    expect(formatMonth('2026-03', 'es')).toBe('marzo de 2026');
    // The date input's long form (spec section 4).
    expect(formatLongDay(moment, 'en')).toBe('March 14, 2026');
    expect(formatLongDay(moment, 'es')).toBe('14 de marzo de 2026');
  });

  it('keeps a bare calendar day on its day west of Greenwich', () => {
    process.env.TZ = 'America/Los_Angeles';
    expect(formatDay('2026-03-14', 'en')).toBe('Mar 14, 2026');
    expect(formatShortDay('2026-03-01', 'en')).toBe('Mar 1');
    expect(formatMonth('2026-03', 'en')).toBe('March 2026');
  });

  it('leaves empty and non-date values alone', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDay(true)).toBe('true');
  });
});

describe('formatters are made once per language and form (decision 064)', () => {
  it('makes one date formatter for a hundred dates of the same form', () => {
    const Real = Intl.DateTimeFormat;
    const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
      locales?: Intl.LocalesArgument,
      options?: Intl.DateTimeFormatOptions,
    ) {
      return new Real(locales, options);
    });
    try {
      // A language no other test formats in, so none is made already.
      for (let i = 0; i < 100; i++) formatDateTime(new Date(2026, 2, 14, 9, 5, i % 60), 'fr');
      expect(made).toHaveBeenCalledTimes(1);
      // Another form, or the same form of a bare day (shown in UTC), is a formatter of its own.
      expect(formatDay('2026-03-14', 'fr')).toBe('14 mars 2026');
      formatDay(moment, 'fr');
      expect(made).toHaveBeenCalledTimes(3);
      expect(formatDateTime(moment, 'fr')).toBe('14 mars 2026, 09:05:07');
      expect(made).toHaveBeenCalledTimes(3);
    } finally {
      made.mockRestore();
    }
  });

  it('hands out one number formatter per language and options, which writes as before', () => {
    expect(numberFormat('es')).toBe(numberFormat('es'));
    expect(numberFormat('es')).not.toBe(numberFormat('en'));
    const percent = numberFormat('es', { style: 'percent', maximumFractionDigits: 1 });
    expect(numberFormat('es', { style: 'percent', maximumFractionDigits: 1 })).toBe(percent);
    expect(percent).not.toBe(numberFormat('es'));
    expect(numberFormat('es').format(1000)).toBe('1.000');
    expect(percent.format(0.1234)).toMatch(/^12,3\s%$/);
    expect(formatNumber(1234567)).toBe('1,234,567');
  });
});
