import fp from 'fastify-plugin';
import { API_KEY_PATTERN } from '@air/shared/schemas/api-key';
import type { TKeyAuth } from '../../core/credentials';
import { AppError } from '../../lib/app-error';
import { sha256 } from '../../lib/crypto';
import { LookupCache } from '../../lib/lookup-cache';
import { activeKeyByHash } from './service';

/** Bounded, because misses (unknown keys) are kept too and anyone can send random keys. */
const MAX_KEYS = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Drops one key from this instance's cache at once. Key writes call it before publishing the
     * change: with Redis the bus delivers asynchronously, and "revoked" must hold on the next request.
     */
    forgetApiKey(keyHash: string): void;
  }
}

/**
 * The API-key look-up (`app.resolveApiKey`, asked by the auth hook for the console API and the
 * gateway alike): keys by SHA-256 hash from an in-memory cache, so a known key costs no query and
 * no promise. Every key change drops its entry through the change bus (on every instance), closing
 * an account drops that account's keys, and a `reset` (Redis reconnected) drops them all; each
 * entry expires after 60 s whatever happens. An uncached key takes one look-up from its client
 * address's budget before the database is asked (given back when the key exists); a burst for
 * one cold key joins one look-up.
 */
export default fp(
  async (app) => {
    const keys = new LookupCache<TKeyAuth, { readonly ip: string }>(
      async (keyHash, client) => {
        const clientIp = client?.ip;
        if (clientIp !== undefined) {
          const wait = app.unknownLookups.take(clientIp);
          if (wait > 0)
            throw new AppError('rate_limited', { messageKey: 'error.too_many_unknown', retryAfter: wait });
        }
        const key = await activeKeyByHash(app.db, keyHash);
        if (key && clientIp !== undefined) app.unknownLookups.refund(clientIp);
        return key;
      },
      { max: MAX_KEYS },
    );

    // The last well-formed key and its hash: a client calling again with the key it just used (one
    // application, one key: the usual gateway caller) is not checked and hashed again. It only
    // spares the hash; the key itself is still looked up in the cache on every call, so a revoked
    // key is refused at once. Dropped on every key change, so a raw key stays in memory no longer
    // than until the next change or the next call with another key.
    let lastRawKey = '';
    let lastHash = '';
    const forgetLast = () => {
      lastRawKey = '';
      lastHash = '';
    };

    app.decorate('resolveApiKey', (rawKey: string, client?: { readonly ip: string }) => {
      if (rawKey !== lastRawKey || lastHash === '') {
        if (!API_KEY_PATTERN.test(rawKey)) return null;
        lastHash = sha256(rawKey);
        lastRawKey = rawKey;
      }
      return keys.get(lastHash, client);
    });
    app.decorate('forgetApiKey', (keyHash: string) => {
      forgetLast();
      keys.invalidate(keyHash);
    });

    const unsubscribe = app.changes.subscribe((change) => {
      if (change.kind === 'api_key') keys.invalidate(change.keyHash);
      else if (change.kind === 'account') keys.invalidateWhere((key) => key.accountId === change.accountId);
      else if (change.kind === 'reset') keys.clear();
      else return;
      forgetLast();
    });
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'keys' },
);
