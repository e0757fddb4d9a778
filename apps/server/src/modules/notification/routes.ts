import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZEnvelope } from '@air/shared/schemas/common';
import { ZNotificationPrefs, ZNotificationUpdate } from '@air/shared/schemas/notification';
import { t } from '../../i18n';
import '../../i18n/identity';
import { listPrefs, savePrefs } from './service';

/** The signed-in user's notification preferences (new_signin, plan_updated, card_updated, invite_accepted). */
const notificationRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['notification'];
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });

  app.get(
    '/notification',
    { preHandler: signedIn, schema: { tags, response: { 200: ZEnvelope(ZNotificationPrefs) } } },
    async (request) => {
      const auth = request.auth!;
      return { data: auth.kind === 'session' ? await listPrefs(app.db, auth.userId) : [] };
    },
  );

  app.patch(
    '/notification',
    {
      preHandler: signedIn,
      schema: { tags, body: ZNotificationUpdate, response: { 200: ZEnvelope(ZNotificationPrefs) } },
    },
    async (request) => {
      const auth = request.auth!;
      if (auth.kind !== 'session') return { data: [] };
      const body = request.body;
      const prefs = Array.isArray(body) ? Object.fromEntries(body.map((p) => [p.name, p.active])) : body;
      await savePrefs(app.db, auth.userId, prefs);
      return { data: await listPrefs(app.db, auth.userId), message: t(request.locale, 'notification.saved') };
    },
  );
};

export default notificationRoutes;
