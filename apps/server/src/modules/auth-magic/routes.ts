import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { t } from '../../i18n';
import './messages';
import { sendMagicLink, signInWithMagicLink } from './service';
import { route } from '../../core/route';

/** `POST /api/auth/magic { email }` (always 200) and `POST /api/auth/magic/verify { token }`. */
const magicRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  route(app, 'POST /api/auth/magic', { schema: { tags } }, async (request) => {
    await sendMagicLink(app, request, request.body.email);
    return { message: t(request.locale, 'auth.magic_sent') };
  });

  route(app, 'POST /api/auth/magic/verify', { schema: { tags } }, async (request) => ({
    data: await signInWithMagicLink(app, request, request.body.token),
  }));
};

export default magicRoutes;
