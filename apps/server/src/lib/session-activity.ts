/** A session unused this long is over: the token in local storage is what a thief would hold. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60_000;
/** And none outlives this, however active. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60_000;
const FLUSH_EVERY_MS = 60_000;
/** Sessions per UPDATE statement. */
const FLUSH_CHUNK = 500;

/** True when a session created at `createdAt` and last seen at `lastSeenAt` (ms) is still live. */
export function sessionLive(createdAt: number, lastSeenAt: number, now: number = Date.now()): boolean {
  return now - lastSeenAt <= SESSION_IDLE_MS && now - createdAt <= SESSION_ABSOLUTE_MS;
}

/**
 * `last_seen_at` without a write per request: requests mark their session in memory and one
 * UPDATE a minute (per 500 sessions) stores them all. Closing the app writes what is pending.
 * `store` is that UPDATE (identity's `markSessionsSeen`, handed in by the auth plugin): identity
 * owns the sessions table, and importing it here would be an import cycle: identity's session
 * pages (identity/profile.ts) import the limits above.
 */
export function createSessionActivity(
  store: (sessionIds: string[]) => Promise<void>,
  onError: (error: unknown) => void,
) {
  let pending = new Set<string>();

  async function flush(): Promise<void> {
    if (pending.size === 0) return;
    const ids = [...pending];
    pending = new Set();
    for (let i = 0; i < ids.length; i += FLUSH_CHUNK) {
      await store(ids.slice(i, i + FLUSH_CHUNK));
    }
  }

  const timer = setInterval(() => void flush().catch(onError), FLUSH_EVERY_MS);
  timer.unref();

  return {
    touch(sessionId: string): void {
      pending.add(sessionId);
    },
    flush,
    async close(): Promise<void> {
      clearInterval(timer);
      await flush().catch(onError);
    },
  };
}

export type TSessionActivity = ReturnType<typeof createSessionActivity>;
