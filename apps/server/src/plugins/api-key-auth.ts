import fp from 'fastify-plugin';
import { API_KEY_PATTERN } from '@air/shared/schemas/api-key';
import { AppError } from '../lib/app-error';
import { sha256 } from '../lib/crypto';
import { MissBudget, UNKNOWN_LOOKUPS_PER_MINUTE } from '../lib/miss-budget';
import { activeKeyByHash, type TActiveKey } from '../modules/keys/service';
import { registerMessages } from '../i18n';

registerMessages({
  en: {
    'error.too_many_unknown':
      'Too many requests with unknown API keys from this address. Please wait a minute and try again.',
  },
  es: {
    'error.too_many_unknown':
      'Demasiadas solicitudes con claves de API desconocidas desde esta dirección. Espera un minuto y vuelve a intentarlo.',
  },
});

/** The key an `air_…` string stands for, as the keys module answers it. */
export type TResolvedApiKey = TActiveKey;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The active key behind a raw `air_…` string (of an open account), or null. Answers from an
     * in-memory cache keyed by the key's hash; every key change drops its entry through
     * `app.changes` ({ kind: 'api_key' }), and closing an account drops that account's keys.
     */
    resolveApiKey(rawKey: string, clientIp?: string): Promise<TResolvedApiKey | null>;
    /** Look-ups of unknown keys and routes per client IP (lib/miss-budget.ts). */
    unknownLookups: MissBudget;
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
    const unknownLookups = new MissBudget(UNKNOWN_LOOKUPS_PER_MINUTE);
    // Bumped on every invalidation so a look-up that started before it cannot store a stale answer.
    let generation = 0;

    function remember(hash: string, value: TResolvedApiKey | null) {
      if (cache.size >= CACHE_MAX_ENTRIES) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      cache.set(hash, { value, expiresAt: Date.now() + CACHE_TTL_MS });
    }

    // One database look-up per key hash at a time: a burst on a cold key joins it, and only the
    // caller that starts a look-up spends its IP's budget of unknown keys.
    const lookups = new Map<string, Promise<TResolvedApiKey | null>>();

    async function resolveApiKey(rawKey: string, clientIp?: string): Promise<TResolvedApiKey | null> {
      if (!API_KEY_PATTERN.test(rawKey)) return null;
      const hash = sha256(rawKey);
      const hit = cache.get(hash);
      if (hit && hit.expiresAt > Date.now()) return hit.value;
      const inFlight = lookups.get(hash);
      if (inFlight) return inFlight;
      const lookup = lookUpKey(hash, clientIp);
      lookups.set(hash, lookup);
      try {
        return await lookup;
      } finally {
        if (lookups.get(hash) === lookup) lookups.delete(hash);
      }
    }

    async function lookUpKey(hash: string, clientIp?: string): Promise<TResolvedApiKey | null> {
      if (clientIp !== undefined) {
        const wait = unknownLookups.take(clientIp);
        if (wait > 0)
          throw new AppError('rate_limited', { messageKey: 'error.too_many_unknown', retryAfter: wait });
      }
      const started = generation;
      const value = await activeKeyByHash(app.db, hash);
      if (started === generation) remember(hash, value);
      if (value && clientIp !== undefined) unknownLookups.refund(clientIp);
      return value;
    }

    function forgetApiKey(keyHash: string) {
      generation++;
      cache.delete(keyHash);
      lookups.delete(keyHash);
    }

    app.decorate('resolveApiKey', resolveApiKey);
    app.decorate('unknownLookups', unknownLookups);
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
        } else if (change.kind === 'reset') {
          generation++;
          cache.clear();
        }
      });
    });
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'api-key-auth' },
);
