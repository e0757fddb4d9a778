import { describe, expect, it } from 'vitest';
import { SPEND_LIMIT_MAX_MINOR } from '@air/shared/schemas/spend-limit';
import { amountToMicros, microsToAmount } from '@air/shared/schemas/price';
import {
  callCostPicos,
  chargeOf,
  chargedPicosOf,
  fits,
  limitNanosOf,
  picosToMinor,
  picosToNanosUp,
  platformFee,
} from '../src/modules/money/service';

/* The money module's rules (decision 043), without a database: units, rounding and the counters. */

const perCall = (micros: number) => ({ per_call: micros, per_1m_input_tokens: 0, per_1m_output_tokens: 0 });

describe('money', () => {
  it('prices a call below one cent exactly, and rounds an invoice line once', () => {
    expect(amountToMicros('0.002')).toBe(2_000);
    expect(microsToAmount(2_000)).toBe('0.002');
    const one = callCostPicos(perCall(2_000), null, null);
    expect(one).toBe(2_000_000_000);
    // 1,000 calls at 0.002 are 2.00 (200 minor units); rounded per call they would be 0.
    expect(picosToMinor(BigInt(one) * 1_000n)).toBe(200);
    expect(picosToMinor(one)).toBe(0);
    // 0.000004 per call, 1,250 calls: 0.005 rounds half up once to 0.01.
    expect(picosToMinor(String(callCostPicos(perCall(4), null, null) * 1_250))).toBe(1);
    // Tokens at a per-million price are exact picos: 3 tokens at 0.15 per million.
    expect(callCostPicos({ per_call: 0, per_1m_input_tokens: 150_000, per_1m_output_tokens: 0 }, 3, 0)).toBe(
      450_000,
    );
    expect(platformFee(200, 10)).toBe(20);
  });

  it('counts spend in nanos so the largest limit stays a safe integer', () => {
    expect(limitNanosOf(SPEND_LIMIT_MAX_MINOR)).toBe(1e15);
    expect(Number.isSafeInteger(limitNanosOf(SPEND_LIMIT_MAX_MINOR))).toBe(true);
    // Rounded up: a counter never holds less than was spent.
    expect(picosToNanosUp(1)).toBe(1);
    expect(picosToNanosUp(1_000)).toBe(1);
    expect(picosToNanosUp(1_001)).toBe(2);
    expect(picosToNanosUp(0)).toBe(0);
    expect(picosToNanosUp(10n ** 20n + 1n)).toBe(1e17 + 1);
  });

  it('charges the exact cost in picos unless the counter capped it', () => {
    // 1,500 picos counted as 2 nanos: charged in full, the exact 1,500.
    expect(chargedPicosOf(1_500, 2)).toBe(1_500);
    // Capped at 1 nano by the limit: 1,000 picos.
    expect(chargedPicosOf(1_500, 1)).toBe(1_000);
    // A limit of 1,000,000.00 with 999,999.99 spent takes a reservation of 0.01 exactly.
    const limit = limitNanosOf(SPEND_LIMIT_MAX_MINOR);
    const spent = limit - limitNanosOf(1);
    expect(fits(spent, limitNanosOf(1), limit)).toBe(true);
    expect(fits(spent + 1, limitNanosOf(1), limit)).toBe(false);
    expect(chargeOf(limit, limitNanosOf(1), limitNanosOf(2), limit)).toBe(limitNanosOf(1));
  });
});
