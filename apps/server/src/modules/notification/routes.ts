import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { t } from '../../i18n';
import '../../i18n/identity';
import { listPrefs, savePrefs } from './service';
import { route } from '../../core/route';

/** The signed-in user's notification preferences (new_signin, plan_updated, card_updated, invite_accepted). */
const notificationRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['notification'];
  const signedIn = app.authorize({ permission: 'signed-in', sessionOnly: true });

  route(app, 'GET /api/notification', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = request.auth!;
    return { data: auth.kind === 'session' ? await listPrefs(app.db, auth.userId) : [] };
  });

  route(app, 'PATCH /api/notification', { preHandler: signedIn, schema: { tags } }, async (request) => {
    const auth = request.auth!;
    if (auth.kind !== 'session') return { data: [] };
    const body = request.body;
    const prefs = Array.isArray(body) ? Object.fromEntries(body.map((p) => [p.name, p.active])) : body;
    await savePrefs(app.db, auth.userId, prefs);
    return { data: await listPrefs(app.db, auth.userId), message: t(request.locale, 'notification.saved') };
  });
};

export default notificationRoutes;
