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
    const keys = new LookupCache<TKeyAuth, string>(
      async (keyHash, clientIp) => {
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

    app.decorate('resolveApiKey', (rawKey: string, clientIp?: string) => {
      if (!API_KEY_PATTERN.test(rawKey)) return null;
      return keys.get(sha256(rawKey), clientIp);
    });
    app.decorate('forgetApiKey', (keyHash: string) => keys.invalidate(keyHash));

    const unsubscribe = app.changes.subscribe((change) => {
      if (change.kind === 'api_key') keys.invalidate(change.keyHash);
      else if (change.kind === 'account') keys.invalidateWhere((key) => key.accountId === change.accountId);
      else if (change.kind === 'reset') keys.clear();
    });
    app.addHook('onClose', async () => unsubscribe());
  },
  { name: 'keys' },
);
