import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, usageEvents } from '../src/db/schema';
import { clientIp, trustOf } from '../src/core/client-ip';
import { randomBase62 } from '../src/lib/crypto';
import { gatewayStateOf } from '../src/gateway/state';
import { createTestApp, type TTestApp } from './helpers';
import {
  COMPLETION,
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  writeTestPlans,
  type TMockUpstream,
} from './gateway-fixtures';

/**
 * The gateway's fast lane (gateway/fast-lane.ts) takes calls on the socket before Fastify's router;
 * the Fastify routes still serve a call with a query string and `inject`. Whichever way a call
 * comes, it must be answered and metered the same.
 */
let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
let plansDir: string;
/** Gateway requests Fastify's own lifecycle saw (an onRequest hook). */
const fastifySaw: string[] = [];

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-lane-plans-'));
  upstream = await startMockUpstream();
  t = await createTestApp({
    plansFile: writeTestPlans(plansDir),
    upstreamAllowPrivate: true,
    instanceName: 'lane-1',
  });
  t.app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.startsWith('/api/v1')) fastifySaw.push(request.url);
    done();
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  rmSync(plansDir, { recursive: true, force: true });
});

async function setup(name: string) {
  const account = await insertAccount(t.db, name, 'free');
  const key = await insertKey(t.db, t.config.secret, account.id);
  const routeName = `lane/${name.toLowerCase()}`;
  const endpoint = await insertEndpoint(t.db, t.config.secret, account.id, {
    routeName,
    routeEndpoint: `${upstream.url}/ok`,
  });
  return { key, routeName, endpoint };
}

const MESSAGES = [{ role: 'user', content: 'Hi' }];

/** A call through the lane (`?via=fastify` false) or through the Fastify route (a query string). */
function call(
  viaFastify: boolean,
  headers: Record<string, string>,
  body?: BodyInit,
  extra: RequestInit = {},
) {
  return fetch(`${base}/api/v1/chat/completions${viaFastify ? '?via=fastify' : ''}`, {
    method: 'POST',
    headers,
    body,
    ...extra,
  });
}

async function answerOf(res: Response) {
  const text = await res.text();
  let error: { code?: string; message?: string } | undefined;
  try {
    error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
  } catch {
    error = undefined;
  }
  return {
    status: res.status,
    code: error?.code,
    message: error?.message,
    instance: res.headers.get('x-air-instance'),
  };
}

describe('gateway fast lane', () => {
  it('takes calls on the socket before Fastify; a query string and inject take the Fastify route, answered and metered alike', async () => {
    const { key, routeName, endpoint } = await setup('Takes');
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key.raw}` };
    const body = JSON.stringify({ model: routeName, messages: MESSAGES });
    fastifySaw.length = 0;

    const lane = await call(false, { ...headers, 'x-request-id': 'lane-call-1' }, body);
    expect(lane.status).toBe(200);
    expect(lane.headers.get('x-request-id')).toBe('lane-call-1');
    expect(lane.headers.get('x-air-instance')).toBe('lane-1');
    expect(await lane.json()).toEqual(COMPLETION);
    expect(fastifySaw).toEqual([]);

    const routed = await call(true, headers, body);
    expect(routed.status).toBe(200);
    expect(await routed.json()).toEqual(COMPLETION);
    expect(fastifySaw).toEqual(['/api/v1/chat/completions?via=fastify']);

    const injected = await t.app.inject({ method: 'POST', url: '/api/v1', headers, payload: body });
    expect(injected.statusCode).toBe(200);
    expect(injected.json()).toEqual(COMPLETION);

    await gatewayStateOf(t.app).meter.flush();
    const rows = await t.db.select().from(usageEvents).where(eq(usageEvents.endpointId, endpoint.id));
    expect(rows.map((row) => [row.status, row.promptTokens, row.completionTokens])).toEqual([
      [200, 11, 7],
      [200, 11, 7],
      [200, 11, 7],
    ]);
  });

  it('refuses every bad call exactly as the Fastify route does', async () => {
    const { key, routeName } = await setup('Refuses');
    const expired = await setup('Expired');
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(apiKeys.id, expired.key.id));
    const json = { 'content-type': 'application/json' };
    const auth = { ...json, authorization: `Bearer ${key.raw}` };
    const good = JSON.stringify({ model: routeName, messages: MESSAGES });
    const cases: [string, Record<string, string>, string | undefined, number, string][] = [
      ['no key', json, good, 401, 'invalid_api_key'],
      [
        'a session-like token',
        { ...json, authorization: 'Bearer eyJhbGciOi.x.y' },
        good,
        401,
        'invalid_api_key',
      ],
      [
        'an unknown key',
        { ...json, authorization: `Bearer air_${'x'.repeat(40)}` },
        good,
        401,
        'invalid_api_key',
      ],
      // The contract's code for any refused key; the message says why.
      [
        'an expired key',
        { ...json, authorization: `Bearer ${expired.key.raw}` },
        good,
        401,
        'invalid_api_key',
      ],
      ['no body', auth, undefined, 400, 'invalid_request'],
      ['an empty body', auth, '', 400, 'invalid_request'],
      ['a JSON array', auth, '[1]', 400, 'invalid_request'],
      ['broken JSON', auth, '{"model":', 400, 'invalid_request'],
      ['no route', auth, JSON.stringify({ messages: MESSAGES }), 400, 'missing_route'],
      ['a U+0000 in the route', auth, JSON.stringify({ model: 'a\u0000b' }), 400, 'invalid_model'],
      ['an unknown route', auth, JSON.stringify({ model: 'lane/nowhere' }), 404, 'route_not_found'],
    ];
    for (const [what, headers, body, status, code] of cases) {
      const routed = await answerOf(await call(true, headers, body));
      const lane = await answerOf(await call(false, headers, body));
      expect({ what, ...lane }).toMatchObject({ what, status, code, instance: 'lane-1' });
      expect({ what, ...lane }).toEqual({ what, ...routed });
    }
    const expiredAnswer = await answerOf(
      await call(false, { ...json, authorization: `Bearer ${expired.key.raw}` }, good),
    );
    expect(expiredAnswer.message).toContain('expired');
  });

  it('reads a chunked body, and refuses one over 10 MiB with 413 once it is sent', async () => {
    const { key, routeName } = await setup('Chunked');
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key.raw}` };
    const parts = [`{"model":"${routeName}",`, `"messages":${JSON.stringify(MESSAGES)}}`];
    const chunked = await call(
      false,
      headers,
      Readable.toWeb(Readable.from(parts)) as ReadableStream,
      {
        duplex: 'half',
      } as RequestInit,
    );
    expect(chunked.status).toBe(200);
    expect(await chunked.json()).toEqual(COMPLETION);

    const big = `{"model":"${routeName}","pad":"${'x'.repeat(10 * 1_048_576)}"}`;
    const declared = await answerOf(await call(false, headers, big));
    expect(declared).toMatchObject({ status: 413, code: 'payload_too_large' });
    const streamed = await call(
      false,
      headers,
      Readable.toWeb(Readable.from([big.slice(0, 5_000_000), big.slice(5_000_000)])) as ReadableStream,
      { duplex: 'half' } as RequestInit,
    );
    expect(await answerOf(streamed)).toMatchObject({ status: 413, code: 'payload_too_large' });
  });
});

describe('gateway fast lane behind a proxy', () => {
  it('budgets a burst of 200 unknown keys by the client address the trusted proxy names', async () => {
    const proxied = await createTestApp({ trustProxy: 1 });
    try {
      const url = `${await proxied.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/chat/completions`;
      const unknownKeyCall = (client: string) =>
        fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer air_${randomBase62(40)}`,
            'content-type': 'application/json',
            'x-forwarded-for': client,
          },
          body: JSON.stringify({ model: 'any', messages: MESSAGES }),
        });
      const minute = () => Math.floor(Date.now() / 60_000);
      const first = minute();
      const burst = await Promise.all(Array.from({ length: 200 }, () => unknownKeyCall('198.51.100.30')));
      // The budget is 30 a clock minute: a burst that runs into the next minute gets that one's too.
      const minutes = minute() - first + 1;
      const codes = burst.map((res) => res.status);
      const looked = codes.filter((code) => code === 401).length;
      if (minutes === 1) expect(looked).toBe(30);
      expect(looked).toBeGreaterThanOrEqual(30);
      expect(looked).toBeLessThanOrEqual(30 * minutes);
      expect(codes.filter((code) => code === 429)).toHaveLength(200 - looked);
      const bodies = await Promise.all(burst.map((res) => res.text()));
      const limited = codes.indexOf(429);
      expect(burst[limited]!.headers.get('retry-after')).toBeTruthy();
      expect((JSON.parse(bodies[limited]!) as { error: { type: string } }).error.type).toBe(
        'rate_limit_error',
      );
      // Another client behind the same proxy has its own budget.
      expect((await unknownKeyCall('198.51.100.31')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe('client address', () => {
  it("is what Fastify reads as request.ip from TRUST_PROXY's own value, in every form", async () => {
    const settings: (boolean | number | string)[] = [false, true, 1, 2, 'loopback', '127.0.0.1, 10.0.0.0/8'];
    const forwarded = [
      undefined,
      '203.0.113.9',
      '198.51.100.1, 10.1.2.3',
      '198.51.100.1, 203.0.113.9, 127.0.0.1',
    ];
    for (const setting of settings) {
      const trust = trustOf(setting);
      // Fastify given the setting itself (a hop count as a function: its types take no number).
      const app = Fastify({
        trustProxy: typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting,
      });
      app.get('/ip', async (request) => ({ fastify: request.ip, lane: clientIp(request.raw, trust) }));
      for (const header of forwarded) {
        const res = await app.inject({
          url: '/ip',
          remoteAddress: '127.0.0.1',
          headers: header ? { 'x-forwarded-for': header } : {},
        });
        const { fastify, lane } = res.json() as { fastify: string; lane: string };
        expect({ setting, header, lane }).toEqual({ setting, header, lane: fastify });
      }
      await app.close();
    }
  });
});
