import type { TKeyAuth } from '../core/credentials';
import type { TUsageRow } from '../modules/usage/service';
import { refusedRow } from './call-outcome';
import type { TGatewayErrorCode } from './errors';
import { createMemoryRateLimiter } from './limits';

/**
 * What bounds the request-log rows of one kind of refusal: `admitted` (the quota and key-cap
 * refusals, already counted against the key's rate limit by `admit`), `rate` (a rate or token
 * refusal: the first per key and minute), or the key's rate per minute for the refusals in money
 * (a missing card, the spend limit, the key's budget): as many rows a minute as the key may make
 * calls, counted in this process apart from its calls. Such a refusal is no call, so it does not
 * use up the key's call rate (issue 42): a key refused for money still makes its free calls.
 */
export type TRefusalGate = { ratePerMinute: number } | 'admitted' | 'rate';

/**
 * The first rate refusal per key and minute. A key flooding past its rate limit would otherwise
 * write a row per refused call; the rest are counted by the gateway's error metric
 * (`air_gateway_errors_total{code="rate_limit_exceeded"}`). Holds one minute's keys at most.
 */
export class FirstRefusalPerMinute {
  private window = -1;
  private readonly seen = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {}

  first(keyId: string): boolean {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.window) {
      this.window = minute;
      this.seen.clear();
    }
    if (this.seen.has(keyId)) return false;
    this.seen.add(keyId);
    return true;
  }
}

/**
 * Writes a known key's refused call to the request log with its code (issue 38 item 2): no
 * endpoint, so it is charged nothing and not counted to the quota (refusedRow), and its 402 or
 * 429 counts in the caller's error rate. Bounded by the gate, so a refused flood cannot write rows
 * faster than the key may call; the refusals left out are still in the error metric.
 */
export function createRefusalLog(record: (row: TUsageRow) => void, now: () => number = Date.now) {
  const rateRefusals = new FirstRefusalPerMinute(now);
  // The money refusals' rows per key and minute; never the call counters (in memory, one minute's keys).
  const moneyRefusals = createMemoryRateLimiter(now);
  return function logRefusal(key: TKeyAuth, code: TGatewayErrorCode, latencyMs: number, gate: TRefusalGate) {
    if (gate === 'rate') {
      if (!rateRefusals.first(key.keyId)) return;
    } else if (gate !== 'admitted') {
      if ((moneyRefusals.hit(key.keyId, gate.ratePerMinute) as number) > 0) return;
    }
    record(refusedRow(key, code, latencyMs));
  };
}
