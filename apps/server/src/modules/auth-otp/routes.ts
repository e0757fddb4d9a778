import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZEnvelope } from '@air/shared/schemas/common';
import { ZOtpSignIn } from '@air/shared/schemas/two-factor';
import { ZSignInData } from '@air/shared/schemas/user';
import { signInWithCode } from './service';

/** `POST /api/auth/otp { code, jwt }`: finishes a sign-in that answered `2fa_required`. */
const otpRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/auth/otp',
    { schema: { tags: ['auth'], body: ZOtpSignIn, response: { 200: ZEnvelope(ZSignInData) } } },
    async (request) => ({
      data: await signInWithCode(app, request, request.body),
    }),
  );
};

export default otpRoutes;
