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
  | { kind: 'user'; userId: string };

export interface TChangeBus {
  publish(change: TChange): Promise<void>;
  subscribe(listener: (change: TChange) => void): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'air:changes';

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

/** Publishes through Redis; every instance (this one included) hears it from the subscription. */
export async function createRedisChangeBus(url: string): Promise<TChangeBus> {
  const local = createMemoryChangeBus();
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const subscriber = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.subscribe(CHANNEL);
  subscriber.on('message', (_channel, message) => {
    try {
      void local.publish(JSON.parse(message) as TChange);
    } catch {
      // A malformed message from another writer on the channel is ignored, not fatal.
    }
  });
  return {
    async publish(change) {
      await publisher.publish(CHANNEL, JSON.stringify(change));
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
