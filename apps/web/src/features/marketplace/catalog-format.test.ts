import { describe, expect, it } from 'vitest';
import { formatMicros, formatMinor } from './catalog-format';

describe('catalog money', () => {
  it('shows a price in micros with as many decimals as it has, from 2 to 6', () => {
    expect(formatMicros(2_000, 'usd', 'en')).toBe('$0.002');
    expect(formatMicros(1, 'usd', 'en')).toBe('$0.000001');
    expect(formatMicros(50_000, 'usd', 'en')).toBe('$0.05');
    expect(formatMicros(1_500_000, 'usd', 'en')).toBe('$1.50');
    // Intl puts a no-break space before the euro sign.
    expect(formatMicros(123_456_789, 'eur', 'es')).toBe('123,456789\u00a0€');
  });

  it('keeps minor units (spend, invoices) at two decimals', () => {
    expect(formatMinor(5, 'usd', 'en')).toBe('$0.05');
  });
});
