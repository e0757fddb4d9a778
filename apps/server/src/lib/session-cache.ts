import { LRUCache } from 'lru-cache';
import type { TRole } from '@air/shared/permissions';

/** What a session resolves to: who, in which account, with which role now. */
export interface TSessionInfo {
  sessionId: string;
  userId: string;
  accountId: string;
  role: TRole;
  verified: boolean;
  /** Milliseconds since the epoch: sign-in, and the last activity known (kept current in memory). */
  createdAt: number;
  lastSeenAt: number;
}

/** A backstop in case an invalidation message is lost (e.g. a Redis reconnect). */
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * In-memory session look-ups (lru-cache: bounded, least recently used out first, 30 s TTL),
 * dropped through the change bus on every revocation, user change (role, verification, deletion)
 * and account change. A generation counter stops a look-up that began before an invalidation from
 * storing its stale answer.
 */
export function createSessionCache() {
  // lru-cache holds no null: an unknown session is kept as `{ value: null }`.
  const entries = new LRUCache<string, { value: TSessionInfo | null }>({ max: MAX_ENTRIES, ttl: TTL_MS });
  let generation = 0;
  return {
    get(sessionId: string): TSessionInfo | null | undefined {
      return entries.get(sessionId)?.value;
    },
    generation: () => generation,
    set(sessionId: string, value: TSessionInfo | null, startedAt: number) {
      if (startedAt !== generation) return;
      entries.set(sessionId, { value });
    },
    dropSession(sessionId: string) {
      generation++;
      entries.delete(sessionId);
    },
    dropWhere(match: (value: TSessionInfo) => boolean) {
      generation++;
      for (const [id, entry] of entries.entries()) if (entry.value && match(entry.value)) entries.delete(id);
    },
    clear() {
      generation++;
      entries.clear();
    },
  };
}
