import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_KEY_SCOPES, ZCreateApiKey, ZDeleteApiKeys, ZUpdateApiKey } from '@air/shared/schemas/api-key';
import { ZIdParams } from '@air/shared/schemas/common';
import { t } from '../../i18n';
import './messages';
import { createKey, deleteKeys, listKeys, revealKey, updateKey } from './service';

/**
 * API keys of the signed-in account (server contract section 4): developers manage them from a
 * session; a key can never manage keys (sessionOnly), so a leaked key cannot mint or reveal others.
 */
const keyRoutes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const guard = {
    preValidation: app.authorize({ permission: 'developer', sessionOnly: true, verified: true }),
  };
  const tags = ['keys'];

  app.get('/key/scopes', { ...guard, schema: { tags } }, async () => ({ data: [...API_KEY_SCOPES] }));

  app.get('/key', { ...guard, schema: { tags } }, async (request) => ({
    data: await listKeys(app, request.auth!.accountId),
  }));

  app.get('/key/:id', { ...guard, schema: { tags, params: ZIdParams } }, async (request) => ({
    data: await revealKey(app, request.auth!.accountId, request.params.id),
  }));

  app.post('/key', { ...guard, schema: { tags, body: ZCreateApiKey } }, async (request, reply) => {
    const data = await createKey(app, request.auth!.accountId, request.body);
    return reply.status(201).send({ data, message: t(request.locale, 'keys.created') });
  });

  app.patch(
    '/key/:id',
    { ...guard, schema: { tags, params: ZIdParams, body: ZUpdateApiKey } },
    async (request) => {
      const data = await updateKey(app, request.auth!.accountId, request.params.id, request.body);
      const revoked = request.body.active === false;
      return { data, message: t(request.locale, revoked ? 'keys.revoked' : 'keys.updated') };
    },
  );

  app.delete('/key', { ...guard, schema: { tags, body: ZDeleteApiKeys } }, async (request) => {
    const ids = Array.isArray(request.body) ? request.body : request.body.ids;
    const deleted = await deleteKeys(app, request.auth!.accountId, ids);
    return { data: { deleted }, message: t(request.locale, 'keys.deleted') };
  });
};

export default keyRoutes;
