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
    const bus = app.config.redisUrl
      ? await createRedisChangeBus(app.config.redisUrl)
      : createMemoryChangeBus();
    app.decorate('changes', bus);
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'change-bus' },
);
