import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { allowOrigin, answerPreflight, crossOrigin } from './cors';
import { ZCountTokensAnswer, ZModel, ZModelList, type TModel } from '@air/shared/schemas/gateway';
import { modelsOf } from './model-list';
import { lazyChildLoggerFactory } from '../lib/lazy-logger';
import { callableModels } from '../modules/aiendpoint/service';
import { answersInAnthropicShape, unknownPathBody, writeGatewayError } from './errors';
import { CHAT, MESSAGES, PROTOCOLS, type TProtocol } from './protocols';
import { mayCall, parseObject } from './call-outcome';
import { countTokens, promptText } from './tokens';
import type { TKeyAuth } from '../core/credentials';
import { callerKey, canInvoke, createInvokeHandlers } from './invoke';
import {
  countTokensOpenApi,
  invokeOpenApi,
  mcpAggregateOpenApi,
  mcpOpenApi,
  messagesOpenApi,
  modelOpenApi,
  modelsOpenApi,
} from './openapi';
import { refuseRequest } from './request-errors';
import { createFastLane } from './fast-lane';
import { installFastLane } from '../core/fast-lanes';
import { createGatewayState } from './state';
import { createMcpHandler, type TMcpMethod } from './mcp-proxy';
import { createMcpAggregate } from './mcp-aggregate';
import { McpUpstreams } from './mcp-client';

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

  const { ctx, handlerFor } = createInvokeHandlers(app, state);
  const routeOptions = { logLevel: 'warn' as const, helmet: false as const };
  const invokeOptions = { ...routeOptions, config: { swaggerTransform: invokeOpenApi } };
  // Every protocol's calls (protocols.ts) through the one call pipeline; `/api/v1` itself is chat.
  // Most calls never reach these Fastify routes: the fast lane takes them as they arrive
  // (fast-lane.ts), at exact paths as a request names them (one with a query string goes here).
  const served: [string, TProtocol][] = [
    ['/v1', CHAT],
    ...PROTOCOLS.map((p): [string, TProtocol] => [p.path, p]),
  ];
  for (const [path, protocol] of served) {
    const invoke = handlerFor(protocol);
    app.post(path, invokeOptions, (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      return invoke(request, reply.raw);
    });
    installFastLane(app, [`${app.prefix}${path}`], createFastLane(app, invoke, GATEWAY_BODY_LIMIT));
  }

  // MCP servers (contract 6d, mcp-proxy.ts): Streamable HTTP's three methods on one address.
  // AIR's own sessions with the servers: the one address for every tool (mcp-aggregate.ts) and
  // the tool lists a key's read-only filter reads (mcp-policy.ts).
  const upstreams = new McpUpstreams(state.agent, app.config.upstreamAllowPrivate);
  const { invokeMcp, forward, closeAll } = createMcpHandler(ctx, app.config.secret, upstreams);
  const { invokeAggregate, streams } = createMcpAggregate(ctx, upstreams, forward);
  state.mcpStreams = streams;
  const unsubscribe = app.changes.subscribe((change) => {
    if (change.kind !== 'endpoint') return;
    upstreams.routeChanged(change.routeName);
    // Its tools may have changed (switched, added, gone): open /api/mcp streams are told.
    streams.changed();
  });
  // Open streams would hold the server's close: they end first (the client resumes elsewhere).
  app.addHook('preClose', (done) => {
    unsubscribe();
    closeAll();
    streams.close();
    upstreams.close();
    done();
  });
  const mcpMethods: TMcpMethod[] = ['POST', 'GET', 'DELETE'];
  for (const method of mcpMethods) {
    app.route({
      method,
      url: '/mcp/:provider/:name',
      ...routeOptions,
      config: { swaggerTransform: mcpOpenApi[method] },
      handler: (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        const { provider, name } = request.params as { provider: string; name: string };
        return invokeMcp(request, reply.raw, method, `${provider}/${name}`);
      },
    });
  }
  for (const method of ['POST', 'GET'] as const)
    app.route({
      method,
      url: '/mcp',
      ...routeOptions,
      config: { swaggerTransform: mcpAggregateOpenApi[method] },
      handler: (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        return invokeAggregate(request, reply.raw, method);
      },
    });
  // CORS preflights of the MCP addresses (browser MCP clients), answered without a key (cors.ts).
  for (const url of ['/mcp', '/mcp/:provider/:name'])
    app.options(url, { ...routeOptions, schema: { hide: true } }, (request, reply) => {
      reply.hijack();
      answerPreflight(request.headers, reply.raw, request.id, 'POST, GET, DELETE');
    });
  // No session at /api/mcp: DELETE is 405 (after the key's checks), no operation of the API.
  app.route({
    method: 'DELETE',
    url: '/mcp',
    ...routeOptions,
    schema: { hide: true },
    handler: (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      return invokeAggregate(request, reply.raw, 'DELETE');
    },
  });

  // Anthropic clients (contract 6c): the same pipeline, their answers and errors in Anthropic's shape.
  const invokeMessages = handlerFor(MESSAGES);
  const messages: typeof invokeMessages = (request, res) => {
    answersInAnthropicShape(res);
    return invokeMessages(request, res);
  };
  // Marked before the body is read: a body over the limit (Fastify's parser, with a query string
  // such as the SDK's `?beta=true`) is refused in Anthropic's shape too.
  const inAnthropicShape = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    answersInAnthropicShape(reply.raw);
    done();
  };
  const messagesOptions = {
    ...routeOptions,
    onRequest: inAnthropicShape,
    config: { swaggerTransform: messagesOpenApi },
  };
  app.post(MESSAGES.path, messagesOptions, (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    return messages(request, reply.raw);
  });
  installFastLane(
    app,
    [`${app.prefix}${MESSAGES.path}`],
    createFastLane(app, messages, GATEWAY_BODY_LIMIT, answersInAnthropicShape),
  );
  app.post(
    '/v1/messages/count_tokens',
    { ...routeOptions, onRequest: inAnthropicShape, config: { swaggerTransform: countTokensOpenApi } },
    async (request, reply) => {
      reply.hijack();
      answersInAnthropicShape(reply.raw);
      try {
        await answerCountTokens(request, reply.raw);
      } catch (error) {
        request.log.error({ err: error }, 'gateway: count_tokens failed');
        writeGatewayError(reply.raw, 'internal_error', request.id);
      }
    },
  );

  // The routes this key may call, as OpenAI's model list (SDKs' `models.list()`).
  app.get(
    '/v1/models',
    { ...routeOptions, config: { swaggerTransform: modelsOpenApi } },
    async (request, reply) => {
      reply.hijack();
      try {
        await answerModels(request.id, reply.raw, callerKey(request), request.keyExpired, request.headers);
      } catch (error) {
        request.log.error({ err: error }, 'gateway: model list failed');
        writeGatewayError(reply.raw, 'internal_error', request.id);
      }
    },
  );

  // One model, `{provider}/{name}` with its slash as is or as %2F (`models.retrieve(id)`); the
  // router decodes a parameter, so `acme%2Fchat` arrives as one `id`.
  const modelRoute = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const params = request.params as { id?: string; provider?: string; name?: string };
    const id = (params.id ?? `${params.provider}/${params.name}`).toLowerCase();
    try {
      await answerModels(request.id, reply.raw, callerKey(request), request.keyExpired, request.headers, id);
    } catch (error) {
      request.log.error({ err: error }, 'gateway: model look-up failed');
      writeGatewayError(reply.raw, 'internal_error', request.id);
    }
  };
  const modelOptions = { ...routeOptions, config: { swaggerTransform: modelOpenApi } };
  app.get('/v1/models/:provider/:name', modelOptions, modelRoute);
  app.get('/v1/models/:id', modelOptions, modelRoute);

  // Every other path or method under /api/v1 answers in OpenAI's shape (contract 6).
  const allowed = new Map<string, string>([
    ['/v1', 'POST'],
    ['/v1/models', 'GET'],
    ...PROTOCOLS.map((p): [string, string] => [p.path, 'POST']),
    [MESSAGES.path, 'POST'],
    ['/v1/messages/count_tokens', 'POST'],
  ]);
  const unknown = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const path = request.url.split('?')[0]!.slice(app.prefix.length);
    const allow = allowed.get(path) ?? (path.startsWith('/v1/models/') ? 'GET' : null);
    // The message names the path the caller sent (with /api), not the one inside this scope.
    const body = unknownPathBody(request.method, `${app.prefix}${path}`.slice(0, 200), allow);
    const code = allow === null ? 'unknown_path' : 'method_not_allowed';
    writeGatewayError(reply.raw, code, request.id, undefined, allow === null ? null : ['allow', allow], body);
  };
  // One wildcard (`/v1` and everything under it): the routes above match first. Not an operation
  // of the API, so not in its document.
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const hidden = { ...routeOptions, schema: { hide: true } };
  app.route({ method: methods, url: '/v1*', ...hidden, handler: unknown });
  // CORS preflights, answered without a key (cors.ts).
  const preflight = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const path = request.url.split('?')[0]!.slice(app.prefix.length);
    const allow = allowed.get(path) ?? (path.startsWith('/v1/models/') ? 'GET' : null);
    if (allow === null) return unknown(request, reply);
    answerPreflight(request.headers, reply.raw, request.id, allow);
  };
  app.options('/v1*', hidden, preflight);

  /**
   * `count_tokens`: the prompt of an Anthropic request to a route the key may call (system,
   * messages' text, tools as JSON), counted with the gateway's tokenizer; nothing is forwarded
   * or metered. An estimate: the provider's own tokenizer may count otherwise.
   */
  async function answerCountTokens(request: FastifyRequest, res: ServerResponse) {
    const key = callerKey(request);
    if (!key)
      return void writeGatewayError(res, request.keyExpired ? 'key_expired' : 'invalid_api_key', request.id);
    if (!canInvoke(key)) return void writeGatewayError(res, 'insufficient_scope', request.id);
    const body = Buffer.isBuffer(request.body) ? parseObject(request.body) : null;
    if (!body || !Array.isArray(body.messages))
      return void writeGatewayError(res, 'invalid_request', request.id);
    if (typeof body.model !== 'string' || body.model === '' || body.model.length > 200)
      return void writeGatewayError(res, 'missing_route', request.id);
    // PostgreSQL refuses U+0000 in text: never let it reach the route look-up.
    if (body.model.includes('\0')) return void writeGatewayError(res, 'invalid_model', request.id);
    const routeName = body.model.toLowerCase();
    let route = state.directory.routes.peek(routeName);
    if (route === undefined) route = await state.directory.routes.load(routeName, request.ip);
    if (!mayCall(key, route)) return void writeGatewayError(res, 'route_not_found', request.id);
    const system =
      typeof body.system === 'string'
        ? body.system
        : Array.isArray(body.system)
          ? body.system.map((block) => (block as { text?: unknown } | null)?.text ?? '').join('\n')
          : '';
    const parts = [system, promptText(body)];
    if (Array.isArray(body.tools) && body.tools.length > 0) parts.push(JSON.stringify(body.tools));
    const answer = JSON.stringify(
      ZCountTokensAnswer.parse({ input_tokens: await countTokens(parts.join('\n')) }),
    );
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(answer),
      'x-request-id': request.id,
      'x-content-type-options': 'nosniff',
    });
    res.end(answer);
  }

  /** The model list, or one model of it (`only`): the routes this key may call. */
  async function answerModels(
    requestId: string,
    res: ServerResponse,
    key: TKeyAuth | null,
    expired: boolean,
    headers: IncomingHttpHeaders,
    only: string | null = null,
  ) {
    if (!key) return void writeGatewayError(res, expired ? 'key_expired' : 'invalid_api_key', requestId);
    if (!canInvoke(key)) return void writeGatewayError(res, 'insufficient_scope', requestId);
    const origin = crossOrigin(headers);
    if (origin !== null) {
      if (!key.allowedOrigins.has(origin))
        return void writeGatewayError(res, 'origin_not_allowed', requestId);
      allowOrigin(res, origin);
    }
    const allowed = key.routes;
    const callable = await callableModels(app.db, key.accountId);
    // A key with an allow-list sees only those routes (contract 6b).
    const rows = callable.filter(
      (row) => (allowed === null || allowed.has(row.id)) && (only === null || row.id === only),
    );
    const data: TModel[] = rows.map((row) => ({
      id: row.id,
      object: 'model' as const,
      created: Math.floor(row.created.getTime() / 1000),
      owned_by: row.ownedBy,
      price: row.price,
    }));
    // The model ids these routes serve (contract 5b), each once with its providers and price range;
    // a model id that is also a route's name is called as the route, so it is listed as the route.
    const keyRoutes = callable.filter((row) => allowed === null || allowed.has(row.id));
    const names = new Set(keyRoutes.map((row) => row.id));
    for (const served of modelsOf(keyRoutes))
      if (!names.has(served.id) && (only === null || served.id === only)) data.push(served);
    data.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (only !== null && data.length === 0) return void writeGatewayError(res, 'route_not_found', requestId);
    // Written on the raw socket (no Fastify serializer): the shared schema keeps the answer to
    // exactly what /api/docs declares.
    const answer = only === null ? ZModelList.parse({ object: 'list', data }) : ZModel.parse(data[0]);
    const body = JSON.stringify(answer);
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  }
}
