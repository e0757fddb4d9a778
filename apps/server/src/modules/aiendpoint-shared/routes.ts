import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZSharedAiEndpoint } from '@air/shared/schemas/aiendpoint';
import { ZEnvelope } from '@air/shared/schemas/common';
import {
  ZMarketplaceEndpoint,
  ZMarketplacePage,
  ZMarketplaceParams,
  ZMarketplaceQuery,
} from '@air/shared/schemas/marketplace';
import { listSharedEndpoints } from '../aiendpoint/service';
import { catalogEndpoint, catalogPage } from './catalog';

/**
 * The marketplace. `GET /api/aiendpointShared`: every active, shared, public endpoint of every
 * account, for any signed-in user (or a key with `aiendpoint.read`), without URLs or upstream
 * settings. `GET /api/marketplace` and `GET /api/marketplace/{provider}/{name}`: the public
 * catalog (contract 5a), no sign-in, with prices and statistics.
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

  app.get(
    '/marketplace',
    {
      schema: {
        tags: ['marketplace'],
        querystring: ZMarketplaceQuery,
        response: { 200: ZEnvelope(ZMarketplacePage) },
      },
    },
    async (request) => ({ data: await catalogPage(app.db, app.plans, request.query) }),
  );

  app.get(
    '/marketplace/:provider/:name',
    {
      schema: {
        tags: ['marketplace'],
        params: ZMarketplaceParams,
        response: { 200: ZEnvelope(ZMarketplaceEndpoint) },
      },
    },
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
