import fp from 'fastify-plugin';
import { createMemoryChangeBus, createRedisChangeBus, type TChangeBus } from '../lib/change-bus';

declare module 'fastify' {
  interface FastifyInstance {
    /** Cache invalidation across instances: publish after a write, subscribe in a cache. */
    changes: TChangeBus;
  }
}

export default fp(
  async (app) => {
    // Not awaited: the server starts while Redis is down and the bus connects when Redis comes.
    const bus = app.config.redisUrl
      ? createRedisChangeBus(app.config.redisUrl, {
          onMissed: (error) =>
            app.log.warn(
              { err: error },
              'change bus: Redis unreachable, changes apply on this instance; other instances drop their caches when it returns',
            ),
        })
      : createMemoryChangeBus();
    app.decorate('changes', bus);
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'change-bus' },
);
