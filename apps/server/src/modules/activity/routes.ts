import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { repeatWhileOpen } from '../../lib/repeat-while-open';
import { listActivity, purgeActivity } from './service';
import { route } from '../../core/route';

const PURGE_EVERY_MS = 60 * 60_000;

/** The account's activity log for admins (users page, second tab), and its 90-day purge. */
const activityRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const admin = app.authorize({ permission: 'admin', sessionOnly: true });

  route(
    app,
    'GET /api/account/activity',
    { preHandler: admin, schema: { tags: ['activity'] } },
    async (request) => ({ data: await listActivity(app.db, request.auth!.accountId, request.query) }),
  );

  // The list already hides entries past retention; the purge keeps the table from growing.
  repeatWhileOpen(
    app,
    PURGE_EVERY_MS,
    () => purgeActivity(app.db),
    (error) => app.log.warn({ err: error }, 'activity purge failed'),
  );
};

export default activityRoutes;
