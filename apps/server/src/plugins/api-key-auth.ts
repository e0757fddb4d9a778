import { and, eq, isNull } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { API_KEY_PATTERN, type TApiKeyScope } from '@air/shared/schemas/api-key';
import { accounts, apiKeys } from '../db/schema';
import { sha256 } from '../lib/crypto';

export interface TResolvedApiKey {
  accountId: string;
  keyId: string;
  scopes: TApiKeyScope[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The active key behind a raw `air_…` string (of an open account), or null. Answers from an
     * in-memory cache keyed by the key's hash; every key change drops its entry through
     * `app.changes` ({ kind: 'api_key' }), and closing an account drops that account's keys.
     */
    resolveApiKey(rawKey: string): Promise<TResolvedApiKey | null>;
    /**
     * Drops one key from this instance's cache at once. Key writes call it before publishing the
     * change: with Redis the bus delivers asynchronously, and "revoked" must hold on the next request.
     */
    forgetApiKey(keyHash: string): void;
  }
}

/** A backstop in case an invalidation message is lost (e.g. a Redis reconnect). */
const CACHE_TTL_MS = 60_000;
/** Bounded, because misses (unknown keys) are cached too and anyone can send random keys. */
const CACHE_MAX_ENTRIES = 10_000;

interface TCacheEntry {
  value: TResolvedApiKey | null;
  expiresAt: number;
}

export default fp(
  async (app) => {
    const cache = new Map<string, TCacheEntry>();
    // Bumped on every invalidation so a look-up that started before it cannot store a stale answer.
    let generation = 0;

    function remember(hash: string, value: TResolvedApiKey | null) {
      if (cache.size >= CACHE_MAX_ENTRIES) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      cache.set(hash, { value, expiresAt: Date.now() + CACHE_TTL_MS });
    }

    async function resolveApiKey(rawKey: string): Promise<TResolvedApiKey | null> {
      if (!API_KEY_PATTERN.test(rawKey)) return null;
      const hash = sha256(rawKey);
      const hit = cache.get(hash);
      if (hit && hit.expiresAt > Date.now()) return hit.value;
      const started = generation;
      const [row] = await app.db
        .select({ keyId: apiKeys.id, accountId: apiKeys.accountId, scopes: apiKeys.scope })
        .from(apiKeys)
        .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
        .where(and(eq(apiKeys.keyHash, hash), eq(apiKeys.active, true), isNull(accounts.closedAt)))
        .limit(1);
      const value = row
        ? { accountId: row.accountId, keyId: row.keyId, scopes: row.scopes as TApiKeyScope[] }
        : null;
      if (started === generation) remember(hash, value);
      return value;
    }

    function forgetApiKey(keyHash: string) {
      generation++;
      cache.delete(keyHash);
    }

    app.decorate('resolveApiKey', resolveApiKey);
    app.decorate('forgetApiKey', forgetApiKey);

    // The change bus plugin loads after this file (file-name order): subscribe once all are in.
    let unsubscribe = () => {};
    app.addHook('onReady', async () => {
      unsubscribe = app.changes.subscribe((change) => {
        if (change.kind === 'api_key') {
          forgetApiKey(change.keyHash);
        } else if (change.kind === 'account') {
          generation++;
          for (const [hash, entry] of cache) {
            if (entry.value?.accountId === change.accountId) cache.delete(hash);
          }
        }
      });
    });
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'api-key-auth' },
);
