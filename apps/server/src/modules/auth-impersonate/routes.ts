import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZEnvelope } from '@air/shared/schemas/common';
import { ZImpersonate } from '@air/shared/schemas/impersonate';
import { ZSignInAnswer } from '@air/shared/schemas/auth';
import './messages';
import { signInByImpersonation } from './service';

/** `POST /api/auth/impersonate { token }`: signs in through a link minted by the master CLI. */
const impersonateRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/auth/impersonate',
    { schema: { tags: ['auth'], body: ZImpersonate, response: { 200: ZEnvelope(ZSignInAnswer) } } },
    async (request) => ({
      data: await signInByImpersonation(app, request, request.body.token),
    }),
  );
};

export default impersonateRoutes;
