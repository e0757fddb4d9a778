import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZSharedAiEndpoint } from '@air/shared/schemas/aiendpoint';
import { ZEnvelope } from '@air/shared/schemas/common';
import { listSharedEndpoints } from '../aiendpoint/service';

/**
 * The marketplace (`GET /api/aiendpointShared`): every active, shared, public endpoint of every
 * account, for any signed-in user (or a key with `aiendpoint.read`), without URLs or upstream
 * settings.
 */
const sharedRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/aiendpointShared',
    {
      preValidation: app.authorize({ permission: 'signed-in', scope: 'aiendpoint.read' }),
      schema: { tags: ['marketplace'], response: { 200: ZEnvelope(z.array(ZSharedAiEndpoint)) } },
    },
    async () => ({ data: await listSharedEndpoints(app) }),
  );
};

export default sharedRoutes;
