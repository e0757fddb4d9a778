import type { FastifyPluginAsync } from 'fastify';
import { listSharedEndpoints } from '../aiendpoint/service';

/**
 * The marketplace (`GET /api/aiendpointShared`): every active, shared, public endpoint of every
 * account, for any signed-in user (or a key with `aiendpoint.read`), without URLs or upstream
 * settings.
 */
const sharedRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/aiendpointShared',
    {
      preValidation: app.authorize({ permission: 'signed-in', scope: 'aiendpoint.read' }),
      schema: { tags: ['marketplace'] },
    },
    async () => ({ data: await listSharedEndpoints(app) }),
  );
};

export default sharedRoutes;
