import type { FastifyBaseLogger } from 'fastify';
import type { TDb } from '../db/client';
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
  return options.redisUrl
    ? new RedisCallCounters(
        options.redisUrl,
        options.db,
        options.log,
        options.beforeSeed,
        options.onLocalAdmit,
      )
    : new LocalCallCounters(options.db, options.beforeSeed);
}
