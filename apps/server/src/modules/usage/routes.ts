import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZEnvelope } from '@air/shared/schemas/common';
import { ZUsageList } from '@air/shared/schemas/usage';
import { accountUsage } from './service';

/** `GET /api/account/usage`: any user of the account, or a key with usage.read. */
const usageRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/account/usage',
    {
      preValidation: app.authorize({ permission: 'user', scope: 'usage.read' }),
      schema: { tags: ['account'], response: { 200: ZEnvelope(ZUsageList) } },
    },
    async (request) => ({ data: await accountUsage(app, request.auth!.accountId) }),
  );
};

export default usageRoutes;
