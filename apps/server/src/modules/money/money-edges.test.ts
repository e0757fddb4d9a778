import { describe, expect, it } from 'vitest';
import { amountToMicros, microsToAmount } from '@air/shared/schemas/price';
import { callCostPicos, chargedPicos, type TChargeable } from './cost';
import { picosToMinor, platformFee } from './round';
import { chargeOf, chargedPicosOf, fits, picosToNanosUp } from './settle';
import { MAX_BILLED_TOKENS } from './units';

/*
 * The money rules at their edges (issue 37 item 8: mutants of these lines survived the
 * integration tests). Prices in micros, costs in picos (decision 043).
 */

const PRICE = { per_call: 2_000, per_1m_input_tokens: 1_000_000, per_1m_output_tokens: 3_000_000 };

function row(fields: Partial<TChargeable>): TChargeable {
  return {
    price: PRICE,
    status: 200,
    cacheHit: false,
    promptTokens: 10,
    completionTokens: 20,
    streamed: false,
    ...fields,
  };
}

describe('a call costs', () => {
  it('per call plus each token at its per-million price, exactly', () => {
    // 2,000 micros + 10 x 1,000,000 + 20 x 3,000,000 picos.
    expect(callCostPicos(PRICE, 10, 20)).toBe(2_000 * 1_000_000 + 10_000_000 + 60_000_000);
  });

  it('no tokens when their count is unknown, zero or negative; at most MAX_BILLED_TOKENS', () => {
    const perCall = 2_000 * 1_000_000;
    expect(callCostPicos(PRICE, null, null)).toBe(perCall);
    expect(callCostPicos(PRICE, 0, 0)).toBe(perCall);
    expect(callCostPicos(PRICE, -5, -7)).toBe(perCall);
    expect(callCostPicos(PRICE, 1, 0)).toBe(perCall + 1_000_000);
    expect(callCostPicos(PRICE, MAX_BILLED_TOKENS, 0)).toBe(perCall + MAX_BILLED_TOKENS * 1_000_000);
    expect(callCostPicos(PRICE, MAX_BILLED_TOKENS + 1, 0)).toBe(perCall + MAX_BILLED_TOKENS * 1_000_000);
    expect(callCostPicos(PRICE, 0, MAX_BILLED_TOKENS * 10)).toBe(perCall + MAX_BILLED_TOKENS * 3_000_000);
  });
});

describe('a metered call is charged', () => {
  const cost = callCostPicos(PRICE, 10, 20);

  it('for a 2xx answer only: 200 and 299 are, 199, 300 and 500 are not', () => {
    expect(chargedPicos(row({ status: 200 }))).toBe(cost);
    expect(chargedPicos(row({ status: 299 }))).toBe(cost);
    expect(chargedPicos(row({ status: 199 }))).toBeNull();
    expect(chargedPicos(row({ status: 300 }))).toBeNull();
    expect(chargedPicos(row({ status: 500 }))).toBeNull();
  });

  it('nothing without a price or from the cache', () => {
    expect(chargedPicos(row({ price: null }))).toBeNull();
    expect(chargedPicos(row({ cacheHit: true }))).toBeNull();
  });

  it('a stream the caller left (499) once it began, and nothing else that ended 499', () => {
    expect(chargedPicos(row({ status: 499, streamed: true }))).toBe(cost);
    expect(chargedPicos(row({ status: 499, streamed: false }))).toBeNull();
    expect(chargedPicos(row({ status: 499, streamed: true, completionTokens: null }))).toBeNull();
    expect(chargedPicos(row({ status: 498, streamed: true }))).toBeNull();
  });

  it('never past its cap', () => {
    expect(chargedPicos(row({ costCapPicos: 5 }))).toBe(5);
    expect(chargedPicos(row({ costCapPicos: cost + 1 }))).toBe(cost);
    expect(chargedPicos(row({ costCapPicos: null }))).toBe(cost);
  });
});

describe('rounding once', () => {
  it('picos to the minor unit, half up, from a number, a bigint or the text SQL sums to', () => {
    const minor = 10_000 * 1_000_000; // picos in one minor unit
    expect(picosToMinor(0)).toBe(0);
    expect(picosToMinor('-5')).toBe(0);
    expect(picosToMinor(1)).toBe(0);
    expect(picosToMinor(minor / 2 - 1)).toBe(0);
    expect(picosToMinor(minor / 2)).toBe(1);
    expect(picosToMinor(String(minor * 3))).toBe(3);
    expect(picosToMinor(BigInt(minor) * 7n + 1n)).toBe(7);
    expect(picosToMinor('123456789012345678901234')).toBe(
      Number((123456789012345678901234n + 5_000_000_000n) / 10_000_000_000n),
    );
  });

  it('the platform fee, half up', () => {
    expect(platformFee(76, 10)).toBe(8);
    expect(platformFee(74, 10)).toBe(7);
    expect(platformFee(75, 10)).toBe(8);
    expect(platformFee(0, 10)).toBe(0);
  });

  it('the counters take picos as nanos rounded up, and give back the exact picos when they took all', () => {
    expect(picosToNanosUp(0)).toBe(0);
    expect(picosToNanosUp(-3)).toBe(0);
    expect(picosToNanosUp(1)).toBe(1);
    expect(picosToNanosUp(1_000)).toBe(1);
    expect(picosToNanosUp(1_001)).toBe(2);
    expect(picosToNanosUp(0n)).toBe(0);
    expect(picosToNanosUp(-1n)).toBe(0);
    expect(picosToNanosUp(1_001n)).toBe(2);
    expect(chargedPicosOf(1_001, 2)).toBe(1_001);
    expect(chargedPicosOf(1_001, 1)).toBe(1_000);
  });
});

describe('a reservation', () => {
  it('fits up to the limit exactly; a zero one needs room left', () => {
    expect(fits(10, 10, 20)).toBe(true);
    expect(fits(11, 10, 20)).toBe(false);
    expect(fits(19, 0, 20)).toBe(true);
    expect(fits(20, 0, 20)).toBe(false);
  });

  it('settles to the cost, the part past the reservation capped by what the limit has left', () => {
    expect(chargeOf(15, 5, 3, 20)).toBe(3);
    expect(chargeOf(15, 5, 5, 20)).toBe(5);
    expect(chargeOf(15, 5, 8, 20)).toBe(8);
    expect(chargeOf(18, 5, 9, 20)).toBe(7);
    expect(chargeOf(25, 5, 9, 20)).toBe(5);
  });
});

describe('typed amounts', () => {
  it('become micros: up to 7 digits, up to 6 decimals, a comma as the point, empty as 0', () => {
    expect(amountToMicros('0.002')).toBe(2_000);
    expect(amountToMicros(' 1,5 ')).toBe(1_500_000);
    expect(amountToMicros('1')).toBe(1_000_000);
    expect(amountToMicros('1234567.000001')).toBe(1_234_567_000_001);
    expect(amountToMicros('')).toBe(0);
    expect(amountToMicros('   ')).toBe(0);
    expect(amountToMicros('0.0000001')).toBeNull();
    expect(amountToMicros('12345678')).toBeNull();
    expect(amountToMicros('1.')).toBeNull();
    expect(amountToMicros('x1')).toBeNull();
    expect(amountToMicros('1x')).toBeNull();
    expect(amountToMicros('-1')).toBeNull();
  });

  it('and back, with 2 to 6 decimals', () => {
    expect(microsToAmount(2_000)).toBe('0.002');
    expect(microsToAmount(1_500_000)).toBe('1.50');
    expect(microsToAmount(123)).toBe('0.000123');
    expect(microsToAmount(0)).toBe('0.00');
    expect(microsToAmount(1_234_567_000_001)).toBe('1234567.000001');
  });
});
