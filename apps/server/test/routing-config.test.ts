import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints, apiKeys } from '../src/db/schema';
import { humanise } from '../src/core/error-handler';
import { t as translate } from '../src/i18n';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, type TActor } from './support/actors';

/*
 * Contract 6a and 6b, the stored side: an endpoint's routing settings (upstreams, retry,
 * fallbacks, circuit, cache) and a key's controls (expiry, routes, monthly cap) are validated,
 * stored, returned, and refused with the field and message the console shows.
 */

let t: TTestApp;
let owner: TActor;
let other: TActor;
beforeAll(async () => {
  t = await createTestApp({ upstreamAllowPrivate: true });
  owner = await createActor(t.app, { accountName: 'Routing Owner' });
  other = await createActor(t.app, { accountName: 'Routing Other' });
});
afterAll(async () => {
  await t?.close();
});

type TMethod = 'GET' | 'POST' | 'PATCH';
function call(method: TMethod, url: string, auth: string, payload?: unknown, locale = 'en') {
  return t.app.inject({
    method,
    url,
    headers: { ...bearer(auth), 'accept-language': locale },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

let counter = 0;
async function endpoint(actor: TActor, fields: Record<string, unknown> = {}) {
  counter += 1;
  const route_name = `route/r-${counter}-${process.pid}`;
  const response = await call('POST', '/api/aiendpoint', actor.token, {
    route_name,
    route_endpoint: 'http://127.0.0.1:9/a',
    ...fields,
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  return { id: response.json().data.id as string, route_name };
}

describe('endpoint routing settings (contract 6a)', () => {
  it('returns the defaults for an endpoint without routing settings, and stores nothing', async () => {
    const { id } = await endpoint(owner);
    const read = await call('GET', `/api/aiendpoint/${id}`, owner.token);
    expect(read.json().data.config).toMatchObject({
      upstreams: [{ url: 'http://127.0.0.1:9/a', weight: 1 }],
      retry: { attempts: 0, backoff_ms: 250 },
      fallbacks: [],
      circuit: { failures: 5, cooldown_s: 30 },
      cache_ttl_s: 0,
    });
    const [row] = await t.db.select().from(aiEndpoints).where(eq(aiEndpoints.id, id));
    expect(row!.routing).toBeNull();
  });

  it('stores upstreams, retry, fallbacks, circuit and cache; route_endpoint follows upstreams[0]', async () => {
    const fallback = await endpoint(owner);
    const { id } = await endpoint(owner);
    const saved = await call('PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: {
        upstreams: [{ url: 'http://127.0.0.1:9/b', weight: 3 }, { url: 'http://127.0.0.1:9/c' }],
        retry: { attempts: 2, backoff_ms: 100 },
        fallbacks: [fallback.route_name],
        circuit: { failures: 3, cooldown_s: 10 },
        cache_ttl_s: 60,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.route_endpoint).toBe('http://127.0.0.1:9/b');
    expect(saved.json().data.config).toMatchObject({
      upstreams: [
        { url: 'http://127.0.0.1:9/b', weight: 3 },
        { url: 'http://127.0.0.1:9/c', weight: 1 },
      ],
      retry: { attempts: 2, backoff_ms: 100 },
      fallbacks: [fallback.route_name],
      circuit: { failures: 3, cooldown_s: 10 },
      cache_ttl_s: 60,
    });
    // A new route_endpoint alone moves the first upstream and keeps the others.
    const moved = await call('PATCH', `/api/aiendpoint/${id}`, owner.token, {
      route_endpoint: 'http://127.0.0.1:9/d',
    });
    expect(moved.json().data.config.upstreams).toEqual([
      { url: 'http://127.0.0.1:9/d', weight: 3, format: 'openai' },
      { url: 'http://127.0.0.1:9/c', weight: 1, format: 'openai' },
    ]);
    // null puts a part back to its default; cache 0 turns it off.
    const reset = await call('PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: { retry: null, circuit: null, fallbacks: null, cache_ttl_s: 0 },
    });
    expect(reset.json().data.config).toMatchObject({
      retry: { attempts: 0, backoff_ms: 250 },
      fallbacks: [],
      circuit: { failures: 5, cooldown_s: 30 },
      cache_ttl_s: 0,
    });
    const [row] = await t.db.select().from(aiEndpoints).where(eq(aiEndpoints.id, id));
    expect(row!.routing).toEqual({
      upstreams: [
        { url: 'http://127.0.0.1:9/d', weight: 3 },
        { url: 'http://127.0.0.1:9/c', weight: 1 },
      ],
    });
  });

  type TCase = [string, Record<string, unknown>, string, string, Record<string, number>];
  const refusals: TCase[] = [
    ['no upstream', { upstreams: [] }, 'config.upstreams', 'validation.too_few', { minimum: 1 }],
    [
      'nine upstreams',
      { upstreams: Array.from({ length: 9 }, (_, i) => ({ url: `http://127.0.0.1:9/${i}` })) },
      'config.upstreams',
      'validation.too_many',
      { maximum: 8 },
    ],
    [
      'weight 0',
      { upstreams: [{ url: 'http://127.0.0.1:9/a', weight: 0 }] },
      'config.upstreams.0.weight',
      'validation.too_small',
      { minimum: 1 },
    ],
    [
      'weight 101',
      { upstreams: [{ url: 'http://127.0.0.1:9/a', weight: 101 }] },
      'config.upstreams.0.weight',
      'validation.too_big',
      { maximum: 100 },
    ],
    [
      'an ftp upstream',
      { upstreams: [{ url: 'ftp://x.example/' }] },
      'config.upstreams.0.url',
      'validation.route_endpoint_url',
      {},
    ],
    [
      'the same upstream twice',
      { upstreams: [{ url: 'http://127.0.0.1:9/a' }, { url: 'http://127.0.0.1:9/a' }] },
      'config.upstreams.1.url',
      'validation.upstream_duplicate',
      {},
    ],
    [
      'six attempts',
      { retry: { attempts: 6 } },
      'config.retry.attempts',
      'validation.too_big',
      { maximum: 5 },
    ],
    [
      'backoff over 10 s',
      { retry: { attempts: 1, backoff_ms: 10_001 } },
      'config.retry.backoff_ms',
      'validation.too_big',
      { maximum: 10_000 },
    ],
    [
      'zero failures',
      { circuit: { failures: 0, cooldown_s: 30 } },
      'config.circuit.failures',
      'validation.too_small',
      { minimum: 1 },
    ],
    [
      'cooldown over an hour',
      { circuit: { failures: 5, cooldown_s: 3601 } },
      'config.circuit.cooldown_s',
      'validation.too_big',
      { maximum: 3600 },
    ],
    [
      'cache over a day',
      { cache_ttl_s: 86_401 },
      'config.cache_ttl_s',
      'validation.too_big',
      { maximum: 86_400 },
    ],
    [
      'four fallbacks',
      { fallbacks: ['a/a', 'a/b', 'a/c', 'a/d'] },
      'config.fallbacks',
      'validation.too_many',
      { maximum: 3 },
    ],
    [
      'a fallback named twice',
      { fallbacks: ['a/a', 'a/a'] },
      'config.fallbacks.1',
      'validation.fallback_duplicate',
      {},
    ],
  ];
  for (const [name, config, field, key, params] of refusals) {
    it(`refuses ${name} on ${field} and changes nothing`, async () => {
      const { id } = await endpoint(owner);
      const response = await call('PATCH', `/api/aiendpoint/${id}`, owner.token, { config });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({
        code: 'validation',
        inputError: field,
        message: translate('en', key, { field: humanise(field), ...params }),
      });
      const [row] = await t.db.select().from(aiEndpoints).where(eq(aiEndpoints.id, id));
      expect(row!.routing).toBeNull();
    });
  }

  it('refuses a fallback to itself, to an unknown route and to a private route of another account', async () => {
    const self = await endpoint(owner);
    const theirs = await endpoint(other);
    const shared = await endpoint(other, { isShared: true, isPrivate: false });
    for (const [name, key] of [
      [self.route_name, 'validation.fallback_self'],
      ['nobody/nothing', 'validation.fallback_unknown'],
      [theirs.route_name, 'validation.fallback_unknown'],
    ] as const) {
      for (const locale of ['en', 'es']) {
        const response = await call(
          'PATCH',
          `/api/aiendpoint/${self.id}`,
          owner.token,
          { config: { fallbacks: [name] } },
          locale,
        );
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({
          code: 'validation',
          inputError: 'config.fallbacks.0',
          message: translate(locale, key, { name }),
        });
      }
    }
    // Another account's shared public route may be a fallback.
    const ok = await call('PATCH', `/api/aiendpoint/${self.id}`, owner.token, {
      config: { fallbacks: [shared.route_name] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.config.fallbacks).toEqual([shared.route_name]);
  });

  it('checks every upstream against the address policy, naming the upstream', async () => {
    const strict = await createTestApp({ upstreamAllowPrivate: false });
    try {
      const actor = await createActor(strict.app);
      const created = await strict.app.inject({
        method: 'POST',
        url: '/api/aiendpoint',
        headers: bearer(actor.token),
        payload: {
          route_name: `strict/r-${process.pid}`,
          route_endpoint: 'https://93.184.215.14/v1',
          config: { upstreams: [{ url: 'https://93.184.215.14/v1' }, { url: 'http://10.0.0.7/v1' }] },
        },
      });
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json()).toEqual({
        code: 'validation',
        inputError: 'config.upstreams.1.url',
        message: translate('en', 'validation.route_endpoint_private'),
      });
    } finally {
      await strict.close();
    }
  });

  it('hides routing settings from other accounts reading a shared endpoint', async () => {
    const shared = await endpoint(other, {
      isShared: true,
      isPrivate: false,
      config: { upstreams: [{ url: 'http://127.0.0.1:9/x' }, { url: 'http://127.0.0.1:9/y' }] },
    });
    const read = await call('GET', `/api/aiendpoint/${shared.id}`, owner.token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.config).toEqual({ description: '' });
    expect(read.body).not.toContain('127.0.0.1:9/y');
  });
});

describe('key controls (contract 6b)', () => {
  it('creates and edits a key with expires_at, routes and monthly_calls; null clears them', async () => {
    const own = await endpoint(owner);
    const shared = await endpoint(other, { isShared: true, isPrivate: false });
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const created = await call('POST', '/api/key', owner.token, {
      name: 'limited',
      scope: ['gateway.invoke'],
      expires_at: expires,
      routes: [own.route_name, shared.route_name, own.route_name],
      monthly_calls: 500,
    });
    expect(created.statusCode, created.body).toBe(201);
    const data = created.json().data;
    expect(data).toMatchObject({
      expires_at: expires,
      routes: [own.route_name, shared.route_name],
      monthly_calls: 500,
    });
    const list = await call('GET', '/api/key', owner.token);
    expect(list.json().data.find((key: { id: string }) => key.id === data.id)).toMatchObject({
      expires_at: expires,
      monthly_calls: 500,
    });
    const cleared = await call('PATCH', `/api/key/${data.id}`, owner.token, {
      expires_at: null,
      routes: null,
      monthly_calls: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data).toMatchObject({ expires_at: null, routes: null, monthly_calls: null });
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, data.id));
    expect(row).toMatchObject({ expiresAt: null, routes: null, monthlyCalls: null });
  });

  it('refuses an expiry in the past, a route the account may not call and a cap below 1', async () => {
    const theirs = await endpoint(other);
    const base = { name: 'bad', scope: ['gateway.invoke'] };
    const cases: [Record<string, unknown>, string, string, Record<string, string | number>][] = [
      [
        { expires_at: new Date(Date.now() - 1000).toISOString() },
        'expires_at',
        'validation.key_expires_past',
        {},
      ],
      [{ expires_at: 'tomorrow' }, 'expires_at', 'validation.invalid_format', {}],
      [
        { routes: [theirs.route_name] },
        'routes.0',
        'validation.key_route_unknown',
        { name: theirs.route_name },
      ],
      [{ routes: ['Not A Route'] }, 'routes.0', 'validation.route_name_format', {}],
      [{ monthly_calls: 0 }, 'monthly_calls', 'validation.too_small', { minimum: 1 }],
      [{ monthly_calls: 1.5 }, 'monthly_calls', 'validation.not_a_number', {}],
    ];
    for (const [fields, field, key, params] of cases) {
      const response = await call('POST', '/api/key', owner.token, { ...base, ...fields });
      expect(response.statusCode, `${JSON.stringify(fields)} ${response.body}`).toBe(400);
      expect(response.json().inputError).toBe(field);
      expect(response.json().message).toBe(translate('en', key, { field: humanise(field), ...params }));
    }
    const keys = await call('GET', '/api/key', owner.token);
    expect(keys.json().data.some((key: { name: string }) => key.name === 'bad')).toBe(false);
  });

  it('refuses an expired key on the console API with a message saying so', async () => {
    const created = await call('POST', '/api/key', owner.token, {
      name: 'soon expired',
      scope: ['account.read'],
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    const { id, full_key: fullKey } = created.json().data as { id: string; full_key: string };
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, id));
    for (const locale of ['en', 'es']) {
      const response = await t.app.inject({
        url: '/api/user',
        headers: { ...bearer(fullKey), 'accept-language': locale },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(translate(locale, 'error.key_expired'));
    }
  });
});
