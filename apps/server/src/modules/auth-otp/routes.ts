import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signInWithCode } from './sign-in-code';
import { route } from '../../core/route';

/** `POST /api/auth/otp { code, jwt }`: finishes a sign-in that answered `2fa_required`. */
const otpRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  route(app, 'POST /api/auth/otp', { schema: { tags: ['auth'] } }, async (request) => ({
    data: await signInWithCode(app, request, request.body),
  }));
};

export default otpRoutes;
