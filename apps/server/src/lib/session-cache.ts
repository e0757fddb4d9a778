import type { TRole } from '@air/shared/permissions';

/** What a session resolves to: who, in which account, with which role now. */
export interface TSessionInfo {
  sessionId: string;
  userId: string;
  accountId: string;
  role: TRole;
  verified: boolean;
}

/** A backstop in case an invalidation message is lost (e.g. a Redis reconnect). */
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * In-memory session look-ups, dropped through the change bus on every revocation, user change
 * (role, verification, deletion) and account change. A generation counter stops a look-up that
 * began before an invalidation from storing its stale answer.
 */
export function createSessionCache() {
  const entries = new Map<string, { value: TSessionInfo | null; expiresAt: number }>();
  let generation = 0;
  return {
    get(sessionId: string): TSessionInfo | null | undefined {
      const hit = entries.get(sessionId);
      if (!hit) return undefined;
      if (hit.expiresAt <= Date.now()) {
        entries.delete(sessionId);
        return undefined;
      }
      return hit.value;
    },
    generation: () => generation,
    set(sessionId: string, value: TSessionInfo | null, startedAt: number) {
      if (startedAt !== generation) return;
      if (entries.size >= MAX_ENTRIES) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(sessionId, { value, expiresAt: Date.now() + TTL_MS });
    },
    dropSession(sessionId: string) {
      generation++;
      entries.delete(sessionId);
    },
    dropWhere(match: (value: TSessionInfo) => boolean) {
      generation++;
      for (const [id, entry] of entries) if (entry.value && match(entry.value)) entries.delete(id);
    },
    clear() {
      generation++;
      entries.clear();
    },
  };
}
