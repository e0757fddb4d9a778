import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import './messages';
import { signInByImpersonation } from './service';
import { route } from '../../core/route';

/** `POST /api/auth/impersonate { token }`: signs in through a link minted by the master CLI. */
const impersonateRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  route(app, 'POST /api/auth/impersonate', { schema: { tags: ['auth'] } }, async (request) => ({
    data: await signInByImpersonation(app, request, request.body.token),
  }));
};

export default impersonateRoutes;
