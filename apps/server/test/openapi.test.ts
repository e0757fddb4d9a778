import { compileErrors, validate } from '@readme/openapi-parser';
import type { RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONSOLE_API } from '@air/shared/api';
import { errorStatusesOf, ZNoQuery, type TCall } from '@air/shared/api-call';
import { CONSOLE_OPERATIONS } from '@air/shared/api-operations';
import { ZEnvelope } from '@air/shared/schemas/common';
import { createTestApp, type TTestApp } from './helpers';

/** Routes that are no part of the API: the docs' own UI files, the console's files, the dev outbox. */
const NOT_API = [
  /^\/api\/docs/,
  /^\/marketplace(\/|$)/,
  /^\/dev\//,
  /^\/$/,
  /^\/signin$/,
  /^\/\*$/,
  /^\/assets\//,
  // The gateway's OpenAI-shaped 404/405 and CORS preflights for every other /api/v1 path.
  /^\/api\/v1\*$/,
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type TDoc = { paths: Record<string, Record<string, TDocOperation>> };
type TDocOperation = {
  operationId?: string;
  summary?: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }>; description?: string }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
};

/**
 * A route's operation in the document: `/api/key/:id` is at `/api/key/{id}`, or under a path that
 * differs only by its parameters' names (`DELETE /api/aiendpoint/:ids` is listed under
 * `/api/aiendpoint/{id}`: core/openapi-paths.ts).
 */
function operationOf(doc: TDoc, method: string, url: string): TDocOperation | undefined {
  const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
  const wanted = shape(url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'));
  const path = Object.keys(doc.paths).find((candidate) => shape(candidate) === wanted);
  return path === undefined ? undefined : doc.paths[path]?.[method.toLowerCase()];
}

describe('the OpenAPI document', () => {
  let t: TTestApp;
  const routes: { method: string; url: string; schema?: RouteOptions['schema']; call?: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        onRoute: (route: RouteOptions) => {
          for (const method of [route.method].flat())
            routes.push({
              method: method.toLowerCase(),
              url: route.url,
              schema: route.schema,
              call: (route.config as { call?: string } | undefined)?.call,
            });
        },
      },
    );
    // A route with an answer schema, returning more than it declares: the extra must not leak.
    t.app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        '/api/test/leak',
        { schema: { hide: true, response: { 200: ZEnvelope(z.object({ id: z.string() })) } } },
        async () => ({ data: { id: 'a', passwordHash: 'secret' } as { id: string } }),
      );
  });
  afterAll(() => t?.close());

  it('is a valid OpenAPI document (checked by a maintained validator)', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
  });

  it('describes every route, its request and each success answer', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const api = routes.filter(
      (route) =>
        (METHODS as readonly string[]).includes(route.method) &&
        !NOT_API.some((re) => re.test(route.url)) &&
        // Hidden on purpose: no operation of the API (the 405 of /api/mcp's GET and DELETE).
        !(route.schema as { hide?: boolean } | undefined)?.hide,
    );
    expect(api.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const { method, url } of api) {
      if (url.startsWith('/api/test/')) continue;
      const operation = operationOf(doc, method, url);
      const success = Object.entries(operation?.responses ?? {}).find(([status]) => /^[23]/.test(status));
      const described = success && (success[1] as { content?: unknown; description?: string }).content;
      // A redirect has no body: its description says where it goes.
      if (!operation || (!described && success?.[0] !== '302'))
        missing.push(`${method.toUpperCase()} ${url}`);
    }
    expect(missing).toEqual([]);
  });

  it("matches the console's call table (@air/shared/api): same bodies, same answers", async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const json = (schema: z.ZodType, io: 'input' | 'output') =>
      JSON.parse(
        JSON.stringify(z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' })),
      );
    const strip = ({ $schema: _ignored, ...rest }: Record<string, unknown>) => rest;
    const differences: string[] = [];
    for (const [call, spec] of Object.entries(CONSOLE_API)) {
      const [method, url] = call.split(' ') as [string, string];
      const operation = operationOf(doc, method, url);
      if (!operation) {
        differences.push(`${call}: no such route`);
        continue;
      }
      const status = String('status' in spec ? spec.status : 200);
      const answer = operation.responses[status]?.content?.['application/json']?.schema;
      if (!answer) differences.push(`${call}: no ${status} answer`);
      else if (JSON.stringify(answer) !== JSON.stringify(strip(json(spec.response, 'output'))))
        differences.push(`${call}: answer differs`);
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if ('body' in spec && JSON.stringify(body) !== JSON.stringify(strip(json(spec.body, 'input'))))
        differences.push(`${call}: body differs`);
    }
    expect(differences).toEqual([]);
  });

  it('has every console API route in the call table', () => {
    // Not console calls: the gateway (OpenAI-compatible and MCP, typed by the SDKs), browser navigations
    // (social sign-in redirects, the invoice PDF, a payout's statement), the card processor's webhook and the
    // development-only billing clock.
    const notConsole = [
      /^\/api\/v1(\/|$)/,
      /^\/api\/mcp(\/|$)/,
      /^\/api\/auth\/social\/:provider/,
      /\/pdf$/,
      /^\/api\/account\/payouts\/:id\/csv$/,
      /^\/api\/billing\/webhook$/,
      /^\/api\/dev\//,
    ];
    const table = new Set(Object.keys(CONSOLE_API));
    const missing = routes
      .filter(
        (route) =>
          (METHODS as readonly string[]).includes(route.method) &&
          route.url.startsWith('/api/') &&
          !route.url.startsWith('/api/test/') &&
          !NOT_API.some((re) => re.test(route.url)) &&
          !notConsole.some((re) => re.test(route.url)),
      )
      .map((route) => `${route.method.toUpperCase()} ${route.url}`)
      .filter((call) => !table.has(call));
    expect([...new Set(missing)].sort()).toEqual([]);
  });

  it('registers every console call from the call table itself (core/route.ts): its very schemas', () => {
    const copies: string[] = [];
    for (const [call, spec] of Object.entries(CONSOLE_API)) {
      const [method, url] = call.split(' ') as [string, string];
      const found = routes.find((route) => route.method === method.toLowerCase() && route.url === url);
      const schema = found?.schema as { body?: unknown; response?: Record<string, unknown> } | undefined;
      const status = 'status' in spec ? spec.status : 200;
      if (found?.call !== call) copies.push(`${call}: not registered with route()`);
      if (schema?.response?.[status] !== spec.response) copies.push(`${call}: answer not the table's`);
      if ('body' in spec && schema?.body !== spec.body) copies.push(`${call}: body not the table's`);
      const { params, querystring } = (schema ?? {}) as { params?: unknown; querystring?: unknown };
      if ('params' in spec && params !== spec.params) copies.push(`${call}: params not the table's`);
      if ('query' in spec ? querystring !== spec.query : querystring !== ZNoQuery)
        copies.push(`${call}: query not the table's`);
    }
    expect(copies).toEqual([]);
  });

  it("names each console call as the call table's operations say (@air/shared/api-operations)", async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const differences: string[] = [];
    for (const [call, named] of Object.entries(CONSOLE_OPERATIONS)) {
      const [method, url] = call.split(' ') as [string, string];
      const operation = operationOf(doc, method, url);
      if (operation?.operationId !== named.operationId || operation.summary !== named.summary)
        differences.push(`${call}: ${operation?.operationId} "${operation?.summary}"`);
    }
    expect(differences).toEqual([]);
  });

  it('gives every operation a unique camelCase operationId and a summary', async () => {
    const doc: TDoc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ call: `${method} ${path}`, ...operation })),
    );
    const ids = operations.map((operation) => operation.operationId);
    expect(
      operations.filter((o) => !/^[a-z][A-Za-z0-9]*$/.test(o.operationId ?? '')).map((o) => o.call),
    ).toEqual([]);
    expect(ids.filter((id, at) => ids.indexOf(id) !== at)).toEqual([]);
    expect(operations.filter((operation) => !operation.summary?.trim()).map((o) => o.call)).toEqual([]);
  });

  it('describes the gateway (OpenAI-compatible) calls', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.paths['/api/v1'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/v1/chat/completions'].post.responses['429']).toBeDefined();
    const models = doc.paths['/api/v1/models'].get.responses['200'].content['application/json'].schema;
    expect(models.properties.data.items.required).toEqual(expect.arrayContaining(['id', 'owned_by']));
  });

  it('documents the error answer of console calls', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const answer = doc.paths['/api/key'].post.responses['400'].content['application/json'].schema;
    expect(answer.required).toEqual(expect.arrayContaining(['code', 'message']));
  });

  it("lists every console call's params, query and error answers as its table entry gives them", async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const differences: string[] = [];
    for (const [call, spec] of Object.entries(CONSOLE_API) as [string, TCall][]) {
      const [method, url] = call.split(' ') as [string, string];
      const operation = operationOf(doc, method, url) as TDocOperation & {
        parameters?: { in: string; name: string; required?: boolean }[];
      };
      const listed = (where: string) =>
        (operation.parameters ?? [])
          .filter((p) => p.in === where)
          .map((p) => p.name)
          .sort();
      const names = (schema: z.ZodType | undefined) =>
        Object.keys((z.toJSONSchema(schema ?? ZNoQuery, { io: 'input' }).properties ?? {}) as object).sort();
      // The document renames `:ids` / `:token` where a sibling path names it `{id}` (openapi-paths.ts).
      const pathNames = listed('path').length === names(spec.params).length;
      if (!pathNames) differences.push(`${call}: path params ${listed('path')} for ${names(spec.params)}`);
      if (listed('query').join() !== names(spec.query).join())
        differences.push(`${call}: query ${listed('query')} for ${names(spec.query)}`);
      const errors = Object.keys(operation.responses).filter((status) => /^4/.test(status));
      const expected = errorStatusesOf(call, spec).map(String);
      if (errors.join() !== expected.join()) differences.push(`${call}: errors ${errors} for ${expected}`);
      for (const status of [...expected, '5XX'])
        if (!operation.responses[status]?.content?.['application/json']?.schema)
          differences.push(`${call}: no ${status} error body`);
    }
    expect(differences).toEqual([]);
    // A few by name, so the test does not only agree with itself.
    const key = operationOf(doc, 'GET', '/api/key/:id') as TDocOperation & { parameters: { name: string }[] };
    expect(key.parameters.map((p) => p.name)).toEqual(['id']);
    expect(Object.keys(key.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '5XX']));
    const log = operationOf(doc, 'GET', '/api/account/usage/log') as TDocOperation & {
      parameters: { name: string }[];
    };
    expect(log.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['cursor', 'limit', 'status']));
    expect(Object.keys(operationOf(doc, 'POST', '/api/auth')!.responses)).not.toContain('403');
  });

  it('serialises answers through their schema: undeclared fields never leave', async () => {
    const res = await t.app.inject({ url: '/api/test/leak' });
    expect(res.json()).toEqual({ data: { id: 'a' } });
  });
});
