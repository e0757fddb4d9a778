/**
 * OpenAI's request rate headers on every admitted call (contract 6c): the key's limit per minute,
 * what is left of it in this minute, and when the minute ends. The limit itself is enforced by the
 * call counters (counters.ts); this counts the calls this instance admitted per key in the same
 * fixed one-minute windows, so on one instance `remaining` is exact, and with REDIS_URL over several
 * instances it counts this instance's share (the most a caller can still be allowed). Holds one
 * minute's keys at most.
 */
export class RequestWindows {
  private window = -1;
  private readonly counts = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts an admitted call; answers the header pairs for its answer. */
  admitted(keyId: string, limitPerMinute: number): [string, string, string, string, string, string] {
    const time = this.now();
    const minute = Math.floor(time / 60_000);
    if (minute !== this.window) {
      this.window = minute;
      this.counts.clear();
    }
    const used = (this.counts.get(keyId) ?? 0) + 1;
    this.counts.set(keyId, used);
    const resetSeconds = Math.max(1, Math.ceil(((minute + 1) * 60_000 - time) / 1000));
    return [
      'x-ratelimit-limit-requests',
      String(limitPerMinute),
      'x-ratelimit-remaining-requests',
      String(Math.max(0, limitPerMinute - used)),
      'x-ratelimit-reset-requests',
      `${resetSeconds}s`,
    ];
  }
}
