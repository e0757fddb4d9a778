import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_KEY_SCOPES,
  ZApiKey,
  ZApiKeyScope,
  ZCreateApiKey,
  ZCreatedApiKey,
  ZDeleteApiKeys,
  ZUpdateApiKey,
} from '@air/shared/schemas/api-key';
import { ZDeleted, ZEnvelope, ZIdParams } from '@air/shared/schemas/common';
import { t } from '../../i18n';
import { actorOf } from '../activity/service';
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

  app.get(
    '/key/scopes',
    { ...guard, schema: { tags, response: { 200: ZEnvelope(z.array(ZApiKeyScope)) } } },
    async () => ({ data: [...API_KEY_SCOPES] }),
  );

  app.get(
    '/key',
    { ...guard, schema: { tags, response: { 200: ZEnvelope(z.array(ZApiKey)) } } },
    async (request) => ({
      data: await listKeys(app, request.auth!.accountId),
    }),
  );

  app.get(
    '/key/:id',
    { ...guard, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZApiKey) } } },
    async (request) => ({
      data: await revealKey(app, request.auth!.accountId, request.params.id),
    }),
  );

  app.post(
    '/key',
    { ...guard, schema: { tags, body: ZCreateApiKey, response: { 201: ZEnvelope(ZCreatedApiKey) } } },
    async (request, reply) => {
      const data = await createKey(app, request.auth!.accountId, request.body, actorOf(request));
      return reply.status(201).send({ data, message: t(request.locale, 'keys.created') });
    },
  );

  app.patch(
    '/key/:id',
    {
      ...guard,
      schema: { tags, params: ZIdParams, body: ZUpdateApiKey, response: { 200: ZEnvelope(ZApiKey) } },
    },
    async (request) => {
      const data = await updateKey(
        app,
        request.auth!.accountId,
        request.params.id,
        request.body,
        actorOf(request),
      );
      const revoked = request.body.active === false;
      return { data, message: t(request.locale, revoked ? 'keys.revoked' : 'keys.updated') };
    },
  );

  app.delete(
    '/key',
    { ...guard, schema: { tags, body: ZDeleteApiKeys, response: { 200: ZEnvelope(ZDeleted) } } },
    async (request) => {
      const ids = Array.isArray(request.body) ? request.body : request.body.ids;
      const deleted = await deleteKeys(app, request.auth!.accountId, ids, actorOf(request));
      return { data: { deleted }, message: t(request.locale, 'keys.deleted') };
    },
  );
};

export default keyRoutes;
