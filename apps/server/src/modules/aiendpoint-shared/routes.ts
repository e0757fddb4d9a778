import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listSharedEndpoints } from '../aiendpoint/service';
import { catalogEndpoint, catalogPage, modelsPage } from './catalog';
import { providerPage } from './provider';
import { route } from '../../core/route';

/**
 * The marketplace. `GET /api/aiendpointShared`: every active, shared, public endpoint of every
 * account, for any signed-in user (or a key with `aiendpoint.read`), without URLs or upstream
 * settings. `GET /api/marketplace` and `GET /api/marketplace/{provider}/{name}`: the public
 * catalog (contract 5a), no sign-in, with prices and statistics.
 */
const sharedRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  route(
    app,
    'GET /api/aiendpointShared',
    {
      preValidation: app.authorize({ permission: 'signed-in', scope: 'aiendpoint.read' }),
      schema: { tags: ['marketplace'] },
    },
    async () => ({ data: await listSharedEndpoints(app) }),
  );

  route(app, 'GET /api/marketplace', { schema: { tags: ['marketplace'] } }, async (request) => ({
    data: await catalogPage(app.db, app.plans, request.query),
  }));

  route(app, 'GET /api/marketplace-models', { schema: { tags: ['marketplace'] } }, async (request) => ({
    data: await modelsPage(app.db, app.plans, request.query),
  }));

  route(app, 'GET /api/marketplace/:provider', { schema: { tags: ['marketplace'] } }, async (request) => ({
    data: await providerPage(app.db, app.plans, request.params.provider),
  }));

  route(
    app,
    'GET /api/marketplace/:provider/:name',
    { schema: { tags: ['marketplace'] } },
    async (request) => ({
      data: await catalogEndpoint(
        app.db,
        app.plans,
        app.config.appUrl,
        `${request.params.provider}/${request.params.name}`,
      ),
    }),
  );
};

export default sharedRoutes;
