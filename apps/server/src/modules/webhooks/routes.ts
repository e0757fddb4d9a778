import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../core/route';
import { t } from '../../i18n';
import './messages';
import {
  createWebhook,
  deleteWebhook,
  enqueueTest,
  listDeliveries,
  listWebhooks,
  updateWebhook,
  type TWebhookDeps,
} from './service';

/**
 * Outbound webhooks of the signed-in account (contract 6e): its owner and admins, from a session
 * (a key cannot register where the account's events go).
 */
const webhookRoutes: FastifyPluginAsync = async (app) => {
  const guard = { preValidation: app.authorize({ permission: 'admin', sessionOnly: true }) };
  const tags = ['webhooks'];
  const deps: TWebhookDeps = {
    db: app.db,
    secret: app.config.secret,
    allowPrivate: app.config.upstreamAllowPrivate,
  };

  route(app, 'GET /api/webhook', { ...guard, schema: { tags } }, async (request) => ({
    data: await listWebhooks(app.db, request.auth!.accountId),
  }));

  route(app, 'POST /api/webhook', { ...guard, schema: { tags } }, async (request) => ({
    data: await createWebhook(deps, request.auth!.accountId, request.body),
    message: t(request.locale, 'webhooks.created'),
  }));

  route(app, 'PATCH /api/webhook/:id', { ...guard, schema: { tags } }, async (request) => ({
    data: await updateWebhook(deps, request.auth!.accountId, request.params.id, request.body),
    message: t(request.locale, 'webhooks.updated'),
  }));

  route(app, 'DELETE /api/webhook/:id', { ...guard, schema: { tags } }, async (request) => ({
    data: { deleted: await deleteWebhook(app.db, request.auth!.accountId, request.params.id) },
    message: t(request.locale, 'webhooks.deleted'),
  }));

  route(app, 'POST /api/webhook/:id/test', { ...guard, schema: { tags } }, async (request) => {
    const id = await enqueueTest(
      app.db,
      request.auth!.accountId,
      request.params.id,
      app.webhooks.worker.now(),
    );
    app.webhooks.worker.wake();
    return { data: { delivery_id: id }, message: t(request.locale, 'webhooks.test_queued') };
  });

  route(app, 'GET /api/webhook/:id/deliveries', { ...guard, schema: { tags } }, async (request) => ({
    data: await listDeliveries(app.db, request.auth!.accountId, request.params.id, request.query),
  }));
};

export default webhookRoutes;
