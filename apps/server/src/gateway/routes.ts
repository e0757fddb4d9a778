import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { ZModelList, type TModelList } from '@air/shared/schemas/gateway';
import { lazyChildLoggerFactory } from '../lib/lazy-logger';
import { callableModels } from '../modules/aiendpoint/service';
import { writeGatewayError } from './errors';
import type { TKeyAuth } from '../core/credentials';
import { callerKey, canInvoke, createInvokeHandler } from './invoke';
import { invokeOpenApi, modelsOpenApi } from './openapi';
import { refuseRequest } from './request-errors';
import { createFastLane } from './fast-lane';
import { installFastLane } from '../core/fast-lanes';
import { createGatewayState } from './state';

/** Bodies up to 10 MiB: chat requests may carry images as base64. */
const GATEWAY_BODY_LIMIT = 10 * 1_048_576;

/**
 * The gateway (server contract section 6), under /api: OpenAI-compatible, its own plugin scope with its
 * own body parser (raw bytes, forwarded unchanged), error shape and no per-request log lines (every
 * call is metered and counted in /metrics instead).
 */
export default async function gatewayRoutes(app: FastifyInstance) {
  const state = createGatewayState(app);
  // Calls an earlier run journalled but did not commit are stored before any new call is taken.
  await state.meter.open();

  // A call logs nothing unless it fails: its request logger is made only then.
  app.setChildLoggerFactory(lazyChildLoggerFactory);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: GATEWAY_BODY_LIMIT },
    (_request, body, done) => {
      done(null, body);
    },
  );

  // Errors before the handler (body too large, unreadable body) in OpenAI's shape.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    reply.hijack();
    refuseRequest(request.raw, reply.raw, error, request.id, request.log);
  });

  const invoke = createInvokeHandler(app, state);
  const routeOptions = { logLevel: 'warn' as const, helmet: false as const };
  const invokeOptions = { ...routeOptions, config: { swaggerTransform: invokeOpenApi } };
  const invokeRoute = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    return invoke(request, reply.raw);
  };
  app.post('/v1', invokeOptions, invokeRoute);
  app.post('/v1/chat/completions', invokeOptions, invokeRoute);
  // Most calls never reach the routes above: the fast lane takes them as they arrive (fast-lane.ts).
  // Exact paths as a request names them: one with a query string goes to Fastify's router.
  const paths = [`${app.prefix}/v1`, `${app.prefix}/v1/chat/completions`];
  installFastLane(app, paths, createFastLane(app, invoke, GATEWAY_BODY_LIMIT));

  // The routes this key may call, as OpenAI's model list (SDKs' `models.list()`).
  app.get(
    '/v1/models',
    { ...routeOptions, config: { swaggerTransform: modelsOpenApi } },
    async (request, reply) => {
      reply.hijack();
      try {
        await listModels(request.id, reply.raw, callerKey(request), request.keyExpired);
      } catch (error) {
        request.log.error({ err: error }, 'gateway: model list failed');
        writeGatewayError(reply.raw, 'internal_error', request.id);
      }
    },
  );

  async function listModels(requestId: string, res: ServerResponse, key: TKeyAuth | null, expired: boolean) {
    if (!key) return void writeGatewayError(res, expired ? 'key_expired' : 'invalid_api_key', requestId);
    if (!canInvoke(key)) return void writeGatewayError(res, 'insufficient_scope', requestId);
    const allowed = key.routes;
    const callable = await callableModels(app.db, key.accountId);
    // A key with an allow-list sees only those routes (contract 6b).
    const rows = allowed === null ? callable : callable.filter((row) => allowed.has(row.id));
    const list: TModelList = {
      object: 'list',
      data: rows.map((row) => ({
        id: row.id,
        object: 'model',
        created: Math.floor(row.created.getTime() / 1000),
        owned_by: row.ownedBy,
      })),
    };
    // Written on the raw socket (no Fastify serializer): the shared schema keeps the answer to
    // exactly what /api/docs declares.
    const body = JSON.stringify(ZModelList.parse(list));
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  }
}
