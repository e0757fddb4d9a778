import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSignInAnswer } from '@air/shared/schemas/auth';
import { ZEnvelope, ZMessageOnly } from '@air/shared/schemas/common';
import { ZMagicLinkRequest, ZMagicLinkVerify } from '@air/shared/schemas/magic-link';
import { t } from '../../i18n';
import './messages';
import { sendMagicLink, signInWithMagicLink } from './service';

/** `POST /api/auth/magic { email }` (always 200) and `POST /api/auth/magic/verify { token }`. */
const magicRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  app.post(
    '/auth/magic',
    { schema: { tags, body: ZMagicLinkRequest, response: { 200: ZMessageOnly } } },
    async (request) => {
      await sendMagicLink(app, request, request.body.email);
      return { message: t(request.locale, 'auth.magic_sent') };
    },
  );

  app.post(
    '/auth/magic/verify',
    { schema: { tags, body: ZMagicLinkVerify, response: { 200: ZEnvelope(ZSignInAnswer) } } },
    async (request) => ({
      data: await signInWithMagicLink(app, request, request.body.token),
    }),
  );
};

export default magicRoutes;
