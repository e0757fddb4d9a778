import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { t } from '../../i18n';
import './messages';
import { sendSupportMessage } from './service';
import { route } from '../../core/route';

/** The help page's support contact (`POST /api/utility/mail`) and the console's links. */
const supportRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['utility'];
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });

  route(app, 'POST /api/utility/mail', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = request.auth!;
    if (auth.kind !== 'session') throw new Error('unreachable: sessionOnly');
    await sendSupportMessage(app, { userId: auth.userId, accountId: auth.accountId }, request.body);
    return { message: t(request.locale, 'support.sent') };
  });

  route(app, 'GET /api/utility/config', { preHandler: signedIn, schema: { tags } }, async () => ({
    data: {
      docs_url: app.config.docsUrl ?? '/api/docs',
      support_configured: Boolean(app.config.supportEmail),
    },
  }));
};

export default supportRoutes;
