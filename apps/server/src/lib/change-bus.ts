import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

/**
 * What changed, so in-memory caches (gateway keys and routes, sessions) drop stale entries at once.
 * With REDIS_URL set the change reaches every server instance through Redis pub/sub; otherwise it
 * stays in this process.
 */
export type TChange =
  | { kind: 'api_key'; keyHash: string }
  | { kind: 'endpoint'; routeName: string }
  | { kind: 'account'; accountId: string }
  | { kind: 'session'; sessionId: string }
  | { kind: 'user'; userId: string }
  /**
   * An endpoint upstream's circuit (`circuit`: its key, no URL) opened until `until` (ms since the
   * epoch) or closed (`until` 0): for everyone, with why, or for one caller account only.
   */
  | {
      kind: 'circuit';
      circuit: string;
      until: number;
      reason?: 'connection' | 'owner' | 'callers';
      callers?: number;
      caller?: string;
    }
  /** Every cached entry may be stale (invalidations may have been missed): drop all caches. */
  | { kind: 'reset' };

export interface TChangeBus {
  /**
   * Applies the change to this process's caches at once, then tells the other instances. Never
   * fails and never waits long for Redis: a write that is already committed must not answer 500
   * because the invalidation could not be broadcast.
   */
  publish(change: TChange): Promise<void>;
  subscribe(listener: (change: TChange) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'air:changes';

/** The longest a request waits for Redis to take a publication (it goes on in the background). */
export const PUBLISH_WAIT_MS = 200;

export function createMemoryChangeBus(): TChangeBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(change) {
      emitter.emit('change', change);
    },
    subscribe(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

interface TRedisChangeBusOptions {
  /** Called when a change could not be broadcast, once per outage (the caller logs it). */
  onMissed?: (error: unknown) => void;
}

/**
 * The change bus across instances, through Redis pub/sub. It never waits for Redis to be there:
 * created while Redis is down, it connects when Redis comes (ioredis retries for ever).
 *
 * - A change is applied here first, synchronously, so this instance never serves what it just
 *   changed; then it is published, and the request waits at most PUBLISH_WAIT_MS for Redis.
 * - While Redis is unreachable nothing is queued (the client has no offline queue): a publication
 *   fails at once and is remembered as missed. When the publishing connection is ready again it
 *   broadcasts one `reset`, so every instance drops its caches, including those that never lost
 *   Redis themselves (this instance alone may have been cut off).
 * - An instance whose subscription (re)connects drops its own caches too: it may have missed
 *   messages meanwhile. Between the outage and the reset, the other instances' entries expire on
 *   their own (every cache entry lives at most 60 s).
 */
export function createRedisChangeBus(url: string, options: TRedisChangeBusOptions = {}): TChangeBus {
  const local = createMemoryChangeBus();
  // Messages carry the sender so it does not apply its own change a second time.
  const origin = randomUUID();
  const publisher = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A Redis that accepts the connection but does not answer must not keep a promise open for ever.
    commandTimeout: 2000,
  });
  // The subscriber subscribes on every (re)connection itself: ioredis's own resubscribe leaves its
  // promise unhandled, so a connection closed while it is in flight (a stop during a reconnect)
  // was an unhandled rejection (redis/ioredis#2187, not in a release yet).
  const subscriber = new Redis(url, { maxRetriesPerRequest: null, autoResubscribe: false });
  // Connection errors are retried by ioredis and reported by the health check; never fatal.
  publisher.on('error', () => {});
  subscriber.on('error', () => {});
  let missed = false;
  // While a publication takes longer than the wait, the next ones do not wait at all: a request
  // that publishes many changes (closing an account) must not pay the wait once per change.
  let slow = false;

  const miss = (error: unknown) => {
    if (!missed) options.onMissed?.(error);
    missed = true;
  };
  const send = (message: TChange): Promise<void> =>
    publisher.publish(CHANNEL, JSON.stringify({ ...message, origin })).then(
      () => {
        slow = false;
        // Redis takes publications again (it may have hung without dropping the connection).
        if (missed) broadcastReset();
      },
      (error: unknown) => {
        slow = false;
        miss(error);
      },
    );
  const broadcastReset = () => {
    missed = false;
    void send({ kind: 'reset' });
  };

  publisher.on('ready', () => {
    if (missed) broadcastReset();
  });
  subscriber.on('ready', () => {
    // A failed SUBSCRIBE means the connection is gone again: the next 'ready' subscribes anew.
    subscriber.subscribe(CHANNEL).catch(() => {});
    void local.publish({ kind: 'reset' });
  });
  subscriber.on('message', (_channel, message) => {
    try {
      const { origin: from, ...change } = JSON.parse(message) as TChange & { origin?: string };
      if (from !== origin) void local.publish(change as TChange);
    } catch {
      // A malformed message from another writer on the channel is ignored, not fatal.
    }
  });

  return {
    async publish(change) {
      await local.publish(change);
      if (publisher.status !== 'ready') {
        miss(new Error(`Redis connection is ${publisher.status}`));
        return;
      }
      const sent = send(change);
      if (slow) return;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          slow = true;
          resolve();
        }, PUBLISH_WAIT_MS);
      });
      await Promise.race([sent, waited]);
      clearTimeout(timer);
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
