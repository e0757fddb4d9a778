import { z } from 'zod';

/**
 * A marketplace price (contract 5a), each part an integer number of micros of the billing
 * currency (millionths of its main unit: 2000 = 0.002), 0 or more: per call, and per million
 * prompt (input) and completion (output) tokens. What a call costs, the rounding and the fee are
 * the server's money module (apps/server/src/modules/money, decision 043); the cap keeps one
 * call's exact cost a safe integer there.
 */
export const PRICE_MAX_MICROS = 1_000_000_000;

/** Micros in one main unit of the currency, and the decimals a price is entered with. */
export const MICROS_PER_UNIT = 1_000_000;
export const PRICE_DECIMALS = 6;

export const ZPricePart = z.number().int().min(0).max(PRICE_MAX_MICROS);

export const ZPrice = z.strictObject({
  per_call: ZPricePart,
  per_1m_input_tokens: ZPricePart,
  per_1m_output_tokens: ZPricePart,
});
export type TPrice = z.infer<typeof ZPrice>;

/**
 * Micros as an amount of the main unit, at least 2 decimals and at most 6, trailing zeros past
 * the second dropped: 2000 -> "0.002", 1_500_000 -> "1.50", 123 -> "0.000123".
 */
export function microsToAmount(micros: number): string {
  const whole = Math.floor(micros / MICROS_PER_UNIT);
  const fraction = String(micros % MICROS_PER_UNIT)
    .padStart(PRICE_DECIMALS, '0')
    .replace(/0{1,4}$/, '');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/**
 * A typed amount (`0.002`, `1`, `1,5`) in micros, or null when it is not an amount of at most 6
 * decimals (a comma is read as the decimal point). Empty is 0.
 */
export function amountToMicros(text: string): number | null {
  const value = text.trim().replace(',', '.');
  if (value === '') return 0;
  const match = /^(\d{1,7})(?:\.(\d{1,6}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * MICROS_PER_UNIT + Number((match[2] ?? '').padEnd(PRICE_DECIMALS, '0'));
}
