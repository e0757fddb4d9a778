import type { FastifyBaseLogger } from 'fastify';
import type { TDb } from '../db/client';
import { storedTokens } from '../modules/usage/service';
import type { TCallCounters } from './counter-types';
import { LocalCallCounters } from './local-counters';
import { RedisCallCounters } from './redis-counters';

/** The gateway's counters: shared through Redis with REDIS_URL, else this process's own. */
export function createCallCounters(options: {
  redisUrl: string | undefined;
  db: TDb;
  log: FastifyBaseLogger;
  beforeSeed: () => Promise<void>;
  onLocalAdmit?: () => void;
}): TCallCounters {
  // A minute's token window lost to a restart is seeded from what is stored (this instance's pending rows first).
  const stored = async (accountId: string, keyId: string, since: Date) => {
    await options.beforeSeed();
    return storedTokens(options.db, accountId, keyId, since);
  };
  return options.redisUrl
    ? new RedisCallCounters(
        options.redisUrl,
        options.db,
        options.log,
        options.beforeSeed,
        stored,
        options.onLocalAdmit,
      )
    : new LocalCallCounters(options.db, options.beforeSeed, Date.now, stored);
}
