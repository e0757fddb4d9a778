import type { FastifyPluginAsync } from 'fastify';
import { API_KEY_SCOPES } from '@air/shared/schemas/api-key';
import { route } from '../../core/route';
import { t } from '../../i18n';
import { actorOf } from '../activity/service';
import { gatewayViewOf, keysWithUsage } from '../usage/service';
import { billingCurrencyOf } from '../billing/service';
import './messages';
import { createKey, deleteKeys, revealKey, updateKey } from './service';

/**
 * API keys of the signed-in account (server contract section 4): developers manage them from a
 * session; a key can never manage keys (sessionOnly), so a leaked key cannot mint or reveal others.
 */
const keyRoutes: FastifyPluginAsync = async (app) => {
  const guard = {
    preValidation: app.authorize({ permission: 'developer', sessionOnly: true, verified: true }),
  };
  const tags = ['keys'];

  route(app, 'GET /api/key/scopes', { ...guard, schema: { tags } }, async () => ({
    data: [...API_KEY_SCOPES],
  }));

  // Each key with its use this period against its cap (one grouped query, usage's service).
  route(app, 'GET /api/key', { ...guard, schema: { tags } }, async (request) => {
    const accountId = request.auth!.accountId;
    const { currency } = await billingCurrencyOf(app.db, app.plans, accountId);
    return { data: await keysWithUsage(app, gatewayViewOf(app.server), accountId, currency) };
  });

  route(app, 'GET /api/key/:id', { ...guard, schema: { tags } }, async (request) => ({
    data: await revealKey(app, request.auth!.accountId, request.params.id, actorOf(request)),
  }));

  route(app, 'POST /api/key', { ...guard, schema: { tags } }, async (request) => {
    const data = await createKey(app, request.auth!.accountId, request.body, actorOf(request));
    return { data, message: t(request.locale, 'keys.created') };
  });

  route(app, 'PATCH /api/key/:id', { ...guard, schema: { tags } }, async (request) => {
    const data = await updateKey(
      app,
      request.auth!.accountId,
      request.params.id,
      request.body,
      actorOf(request),
    );
    const revoked = request.body.active === false;
    return { data, message: t(request.locale, revoked ? 'keys.revoked' : 'keys.updated') };
  });

  route(app, 'DELETE /api/key', { ...guard, schema: { tags } }, async (request) => {
    const ids = Array.isArray(request.body) ? request.body : request.body.ids;
    const deleted = await deleteKeys(app, request.auth!.accountId, ids, actorOf(request));
    return { data: { deleted }, message: t(request.locale, 'keys.deleted') };
  });
};

export default keyRoutes;
