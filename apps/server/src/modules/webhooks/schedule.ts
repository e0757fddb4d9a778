/**
 * When a failed delivery is tried again (contract 6e): 5 s, 30 s, 2 min, 10 min and 1 h after the
 * failed attempts, then every 6 h, until 24 h after the event; after that it is given up (failed).
 */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000] as const;
const LATER_DELAY_MS = 6 * 3_600_000;
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;

/** The next attempt after `attempts` failed ones, or null when the 24 hours have passed. */
export function nextAttemptAt(createdAtMs: number, attempts: number, nowMs: number): number | null {
  const delay = RETRY_DELAYS_MS[attempts - 1] ?? LATER_DELAY_MS;
  const next = nowMs + delay;
  return next - createdAtMs > GIVE_UP_AFTER_MS ? null : next;
}
