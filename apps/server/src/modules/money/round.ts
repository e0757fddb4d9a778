import { PICOS_PER_MINOR } from './units';

const PER_MINOR = BigInt(PICOS_PER_MINOR);
const HALF = PER_MINOR / 2n;

/**
 * A sum of picos rounded once to the minor unit, half up: what an invoice line, a period's spend
 * or an unbilled total shows. The database hands the sum over as text (sum() of bigint is numeric,
 * never rounded there), so a sum of any size stays exact.
 */
export function picosToMinor(picos: string | bigint | number): number {
  const sum = typeof picos === 'bigint' ? picos : BigInt(picos);
  if (sum <= 0n) return 0;
  return Number((sum + HALF) / PER_MINOR);
}

/** The platform's part of a charge (minor units): `percent` of it, rounded once, half up. */
export function platformFee(amountMinor: number, percent: number): number {
  return Math.floor((amountMinor * percent + 50) / 100);
}
