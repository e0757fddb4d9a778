import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED_HEADER_VALUE } from '@air/shared/schemas/aiendpoint';
import { aiEndpoints } from '../src/db/schema';
import type { TChange } from '../src/lib/change-bus';
import { openHeaders } from '../src/modules/aiendpoint/wire';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, createApiKey, type TActor } from './support/actors';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ upstreamAllowPrivate: true });
});
afterAll(async () => {
  await t?.close();
});

type TMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
function call(app: TTestApp['app'], method: TMethod, url: string, auth?: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: auth ? bearer(auth) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

let counter = 0;
function routeName(prefix = 'acme') {
  counter += 1;
  return `${prefix}/model-${counter}.v1:${process.pid}`;
}

async function createEndpoint(actor: TActor, fields: Record<string, unknown> = {}) {
  const response = await call(t.app, 'POST', '/api/aiendpoint', actor.token, {
    route_name: routeName(),
    route_endpoint: 'http://127.0.0.1:9/v1/chat/completions',
    name: 'Agent 20260101',
    isShared: false,
    isPrivate: true,
    route_type: 'agent',
    ...fields,
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json().data.id as string;
}

async function row(id: string) {
  const [found] = await t.db.select().from(aiEndpoints).where(eq(aiEndpoints.id, id));
  return found;
}

describe('registry: create, read, list', () => {
  let owner: TActor;
  beforeAll(async () => {
    owner = await createActor(t.app, { accountName: 'Acme Labs' });
  });

  it('creates an endpoint and answers the new id as data.data', async () => {
    const name = routeName();
    const response = await call(t.app, 'POST', '/api/aiendpoint', owner.token, {
      route_name: name,
      route_endpoint: 'http://localhost:8080/v1',
      name: 'Agent 2026',
      isShared: true,
      isPrivate: false,
      route_type: 'model',
    });
    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data.data).toBe(data.id);
    expect(response.json().message).toBe('Endpoint created');

    const detail = await call(t.app, 'GET', `/api/aiendpoint/${data.id}`, owner.token);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toEqual({
      id: data.id,
      name: 'Agent 2026',
      route_name: name,
      route_endpoint: 'http://localhost:8080/v1',
      route_type: 'model',
      isActive: true,
      isPrivate: false,
      isShared: true,
      protocol: 'openai',
      model_id: null,
      account_orgDisplayName: 'Acme Labs',
      config: {
        description: '',
        upstream_model: null,
        timeout_ms: null,
        headers: {},
        upstreams: [{ url: 'http://localhost:8080/v1', weight: 1, format: 'openai' }],
        retry: { attempts: 0, backoff_ms: 250 },
        fallbacks: [],
        circuit: { failures: 5, cooldown_s: 30 },
        cache_ttl_s: 0,
        trace_content: false,
        price: null,
      },
      protocols: null,
      disabled_tools: [],
      editable: true,
      date_created: expect.any(String),
      date_updated: expect.any(String),
    });

    const list = await call(t.app, 'GET', '/api/aiendpoint', owner.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((e: { id: string }) => e.id)).toContain(data.id);
  });

  it('defaults the type to agent and the name to the route name', async () => {
    const name = routeName();
    const response = await call(t.app, 'POST', '/api/aiendpoint', owner.token, {
      route_name: name,
      route_endpoint: 'https://93.184.216.34/v1',
    });
    expect(response.statusCode).toBe(201);
    expect(await row(response.json().data.id)).toMatchObject({ name, routeType: 'agent', isPrivate: true });
  });

  it('validates the route name: format 400, taken 409 (across accounts)', async () => {
    for (const bad of ['Acme/Model', 'acme', 'acme/', '/model', 'acme/mo del', 'ac:me/model', 'acme/a/b']) {
      const response = await call(t.app, 'POST', '/api/aiendpoint', owner.token, {
        route_name: bad,
        route_endpoint: 'http://127.0.0.1:9/',
      });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().inputError).toBe('route_name');
    }
    const format = await call(t.app, 'POST', '/api/aiendpoint', owner.token, {
      route_name: 'Acme/Model',
      route_endpoint: 'http://127.0.0.1:9/',
    });
    expect(format.json().message).toMatch(/^Route name must be lower-case provider\/name/);
    const missing = await call(t.app, 'POST', '/api/aiendpoint', owner.token, {
      route_endpoint: 'http://a.b/',
    });
    expect(missing.json()).toEqual({
      code: 'validation',
      message: 'Route name is required',
      inputError: 'route_name',
    });

    const name = routeName();
    await createEndpoint(owner, { route_name: name });
    const other = await createActor(t.app);
    const taken = await call(t.app, 'POST', '/api/aiendpoint', other.token, {
      route_name: name,
      route_endpoint: 'http://127.0.0.1:9/',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      code: 'conflict',
      message: 'This route name is already taken',
      inputError: 'route_name',
    });
    expect((await call(t.app, 'GET', '/api/aiendpoint', other.token)).json().data).toEqual([]);
  });

  it('validates the endpoint URL and the other fields', async () => {
    for (const url of ['not a url', 'ftp://example.com/', 'example.com/v1', 'https://u:p@example.com/']) {
      const response = await call(t.app, 'POST', '/api/aiendpoint', owner.token, {
        route_name: routeName(),
        route_endpoint: url,
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().inputError).toBe('route_endpoint');
    }
    const badType = await call(t.app, 'POST', '/api/aiendpoint', owner.token, {
      route_name: routeName(),
      route_endpoint: 'http://127.0.0.1:9/',
      route_type: 'robot',
    });
    expect(badType.json().inputError).toBe('route_type');
    const unknown = await call(t.app, 'POST', '/api/aiendpoint', owner.token, {
      route_name: routeName(),
      route_endpoint: 'http://127.0.0.1:9/',
      account_id: owner.accountId,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().inputError).toBe('account_id');
  });
});

describe('registry: private upstream addresses', () => {
  it('refuses loopback and private addresses when UPSTREAM_ALLOW_PRIVATE is off', async () => {
    const strict = await createTestApp({ upstreamAllowPrivate: false });
    try {
      const owner = await createActor(strict.app);
      for (const url of [
        'http://127.0.0.1:8080/v1',
        'http://localhost/v1',
        'http://[::1]/',
        'http://10.1.2.3/',
      ]) {
        const response = await call(strict.app, 'POST', '/api/aiendpoint', owner.token, {
          route_name: routeName(),
          route_endpoint: url,
        });
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toEqual({
          code: 'validation',
          message: 'Private, loopback and link-local addresses are not allowed',
          inputError: 'route_endpoint',
        });
      }
      const ok = await call(strict.app, 'POST', '/api/aiendpoint', owner.token, {
        route_name: routeName(),
        route_endpoint: 'https://93.184.216.34/v1',
      });
      expect(ok.statusCode).toBe(201);
      const patch = await call(strict.app, 'PATCH', `/api/aiendpoint/${ok.json().data.id}`, owner.token, {
        route_endpoint: 'http://192.168.0.10/',
      });
      expect(patch.statusCode).toBe(400);
      expect(
        (await call(strict.app, 'GET', '/api/aiendpoint', owner.token)).json().data[0].route_endpoint,
      ).toBe('https://93.184.216.34/v1');
    } finally {
      await strict.close();
    }
  });
});

describe('registry: edit', () => {
  let owner: TActor;
  beforeAll(async () => {
    owner = await createActor(t.app);
  });

  it('saves switches, name and a sanitised description', async () => {
    const id = await createEndpoint(owner);
    const response = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      name: 'Renamed',
      description:
        '<p>Fast <strong>model</strong> <a href="https://docs.example/">docs</a></p><script>alert(1)</script>' +
        '<a href="javascript:alert(2)" onclick="x()">x</a>',
      isActive: false,
      isPrivate: false,
      isShared: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Endpoint saved');
    const data = response.json().data;
    expect(data).toMatchObject({ name: 'Renamed', isActive: false, isPrivate: false, isShared: true });
    expect(data.config.description).toBe(
      '<p>Fast <strong>model</strong> <a href="https://docs.example/" rel="noopener noreferrer nofollow">docs</a></p>' +
        '<a rel="noopener noreferrer nofollow">x</a>',
    );
    expect((await row(id))!.description).not.toMatch(/script|javascript|onclick/);

    const viaConfig = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: { description: '<em>hi</em><iframe src="https://x"></iframe>' },
    });
    expect(viaConfig.json().data.config.description).toBe('<em>hi</em>');
  });

  it('keeps upstream headers encrypted, masked on the wire; the placeholder keeps, null removes', async () => {
    const id = await createEndpoint(owner);
    const first = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: {
        upstream_model: 'gpt-4o',
        timeout_ms: 30000,
        headers: { Authorization: 'Bearer sk-upstream-secret', 'X-Org': 'acme' },
      },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.config).toMatchObject({
      description: '',
      upstream_model: 'gpt-4o',
      timeout_ms: 30000,
      headers: { authorization: MASKED_HEADER_VALUE, 'x-org': MASKED_HEADER_VALUE },
      price: null,
    });
    expect(first.body).not.toContain('sk-upstream-secret');
    const stored = await row(id);
    expect(stored!.upstreamHeadersEnc).not.toContain('sk-upstream-secret');
    expect(openHeaders(t.config.secret, stored!.upstreamHeadersEnc)).toEqual({
      authorization: 'Bearer sk-upstream-secret',
      'x-org': 'acme',
    });

    const second = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: { headers: { authorization: MASKED_HEADER_VALUE, 'x-org': null, 'x-new': 'v' } },
    });
    expect(second.statusCode).toBe(200);
    expect(openHeaders(t.config.secret, (await row(id))!.upstreamHeadersEnc)).toEqual({
      authorization: 'Bearer sk-upstream-secret',
      'x-new': 'v',
    });
    const list = await call(t.app, 'GET', '/api/aiendpoint', owner.token);
    expect(list.body).not.toContain('sk-upstream-secret');

    const reserved = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: { headers: { Host: 'evil.example' } },
    });
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().inputError).toBe('config.headers');
    const maskedNew = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: { headers: { 'x-unknown': MASKED_HEADER_VALUE } },
    });
    expect(maskedNew.statusCode).toBe(400);
    const crlf = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: { headers: { 'x-a': 'v\r\nx-injected: 1' } },
    });
    expect(crlf.statusCode).toBe(400);
    const badTimeout = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: { timeout_ms: 5 },
    });
    expect(badTimeout.statusCode).toBe(400);
    expect(openHeaders(t.config.secret, (await row(id))!.upstreamHeadersEnc)).toEqual({
      authorization: 'Bearer sk-upstream-secret',
      'x-new': 'v',
    });

    const cleared = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      config: { headers: { authorization: null, 'x-new': null }, upstream_model: null, timeout_ms: null },
    });
    expect(cleared.json().data.config).toMatchObject({ upstream_model: null, timeout_ms: null, headers: {} });
    expect((await row(id))!.upstreamHeadersEnc).toBeNull();
  });

  it('renames with the uniqueness check and publishes old and new route names', async () => {
    const id = await createEndpoint(owner);
    const taken = routeName();
    await createEndpoint(owner, { route_name: taken });
    const clash = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, { route_name: taken });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().inputError).toBe('route_name');

    const before = (await row(id))!.routeName;
    const after = routeName('renamed');
    const seen: TChange[] = [];
    const unsubscribe = t.app.changes.subscribe((change) => seen.push(change));
    try {
      const renamed = await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, { route_name: after });
      expect(renamed.statusCode).toBe(200);
      expect(seen).toEqual([
        { kind: 'endpoint', routeName: before },
        { kind: 'endpoint', routeName: after },
      ]);
      seen.length = 0;
      await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, { isActive: false });
      expect(seen).toEqual([{ kind: 'endpoint', routeName: after }]);
      seen.length = 0;
      await call(t.app, 'DELETE', `/api/aiendpoint/${id}`, owner.token);
      expect(seen).toEqual([{ kind: 'endpoint', routeName: after }]);
    } finally {
      unsubscribe();
    }
  });

  it('deletes comma-separated ids, all or nothing', async () => {
    const a = await createEndpoint(owner);
    const b = await createEndpoint(owner);
    const other = await createActor(t.app);
    const foreign = await createEndpoint(other);
    const mixed = await call(t.app, 'DELETE', `/api/aiendpoint/${a},${foreign}`, owner.token);
    expect(mixed.statusCode).toBe(404);
    expect(await row(a)).toBeDefined();
    expect(await row(foreign)).toBeDefined();
    expect((await call(t.app, 'DELETE', `/api/aiendpoint/${a},nope`, owner.token)).statusCode).toBe(404);

    const response = await call(t.app, 'DELETE', `/api/aiendpoint/${a},${b}`, owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ deleted: 2 });
    expect(await row(a)).toBeUndefined();
    expect(await row(b)).toBeUndefined();
  });
});

describe('registry: permissions and account isolation', () => {
  it('lets any member of the account read and write; 401 without credentials', async () => {
    const owner = await createActor(t.app);
    const member = await createActor(t.app, { role: 'user', accountId: owner.accountId });
    const id = await createEndpoint(member);
    expect((await call(t.app, 'GET', `/api/aiendpoint/${id}`, owner.token)).statusCode).toBe(200);
    expect(
      (await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, member.token, { name: 'm' })).statusCode,
    ).toBe(200);
    const unverified = await createActor(t.app, {
      role: 'user',
      accountId: owner.accountId,
      verified: false,
    });
    expect((await call(t.app, 'GET', '/api/aiendpoint', unverified.token)).statusCode).toBe(200);
    const refused = await call(t.app, 'POST', '/api/aiendpoint', unverified.token, {
      route_name: routeName(),
      route_endpoint: 'http://127.0.0.1:9/',
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, unverified.token, { name: 'u' })).statusCode,
    ).toBe(403);
    expect((await call(t.app, 'GET', '/api/aiendpoint')).statusCode).toBe(401);
    expect(
      (await call(t.app, 'POST', '/api/aiendpoint', undefined, { route_name: routeName() })).statusCode,
    ).toBe(401);
  });

  it('answers 404 to another account for a private endpoint and changes nothing', async () => {
    const owner = await createActor(t.app);
    const intruder = await createActor(t.app);
    const id = await createEndpoint(owner, { name: 'secret' });
    const before = await row(id);
    expect((await call(t.app, 'GET', `/api/aiendpoint/${id}`, intruder.token)).statusCode).toBe(404);
    expect(
      (await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, intruder.token, { name: 'x' })).statusCode,
    ).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/aiendpoint/${id}`, intruder.token)).statusCode).toBe(404);
    expect((await call(t.app, 'GET', '/api/aiendpoint', intruder.token)).json().data).toEqual([]);
    expect(await row(id)).toEqual(before);
  });

  it("shows another account's shared public endpoint read-only, without URL or upstream settings", async () => {
    const owner = await createActor(t.app, { accountName: 'Provider Org' });
    const reader = await createActor(t.app);
    const id = await createEndpoint(owner, { isShared: true, isPrivate: false, route_type: 'datasource' });
    await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
      description: '<p>Shared</p>',
      config: { upstream_model: 'secret-model', headers: { authorization: 'Bearer sk-hidden' } },
    });
    const before = await row(id);

    const detail = await call(t.app, 'GET', `/api/aiendpoint/${id}`, reader.token);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toEqual({
      id,
      name: 'Agent 20260101',
      route_name: before!.routeName,
      route_type: 'datasource',
      isActive: true,
      isPrivate: false,
      isShared: true,
      protocol: 'openai',
      model_id: null,
      account_orgDisplayName: 'Provider Org',
      config: { description: '<p>Shared</p>' },
      editable: false,
    });
    expect(detail.body).not.toMatch(/127\.0\.0\.1|secret-model|authorization/);

    expect(
      (await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, reader.token, { name: 'mine' })).statusCode,
    ).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/aiendpoint/${id}`, reader.token)).statusCode).toBe(404);
    expect(await row(id)).toEqual(before);

    // Inactive, private or unshared: no longer visible to others.
    for (const change of [{ isActive: false }, { isPrivate: true }, { isShared: false }]) {
      await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, owner.token, {
        isActive: true,
        isPrivate: false,
        isShared: true,
        ...change,
      });
      expect((await call(t.app, 'GET', `/api/aiendpoint/${id}`, reader.token)).statusCode).toBe(404);
    }
  });

  it('honours key scopes: aiendpoint.read lists but cannot create; aiendpoint.write creates', async () => {
    const owner = await createActor(t.app);
    const id = await createEndpoint(owner);
    const reader = await createApiKey(t.app, owner, ['aiendpoint.read']);
    const writer = await createApiKey(t.app, owner, ['aiendpoint.write']);
    const gatewayOnly = await createApiKey(t.app, owner, ['gateway.invoke']);

    const list = await call(t.app, 'GET', '/api/aiendpoint', reader.key);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await call(t.app, 'GET', `/api/aiendpoint/${id}`, reader.key)).statusCode).toBe(200);
    const payload = { route_name: routeName(), route_endpoint: 'http://127.0.0.1:9/' };
    expect((await call(t.app, 'POST', '/api/aiendpoint', reader.key, payload)).statusCode).toBe(403);
    expect((await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, reader.key, { name: 'x' })).statusCode).toBe(
      403,
    );
    expect((await call(t.app, 'DELETE', `/api/aiendpoint/${id}`, reader.key)).statusCode).toBe(403);
    expect((await call(t.app, 'GET', '/api/aiendpoint', gatewayOnly.key)).statusCode).toBe(403);

    const created = await call(t.app, 'POST', '/api/aiendpoint', writer.key, payload);
    expect(created.statusCode).toBe(201);
    expect((await row(created.json().data.id))!.accountId).toBe(owner.accountId);
    expect((await call(t.app, 'GET', '/api/aiendpoint', writer.key)).statusCode).toBe(403);
  });

  it("answers 404 to another account's key and changes nothing", async () => {
    const owner = await createActor(t.app);
    const id = await createEndpoint(owner);
    const before = await row(id);
    const intruder = await createActor(t.app);
    const read = await createApiKey(t.app, intruder, ['aiendpoint.read']);
    const write = await createApiKey(t.app, intruder, ['aiendpoint.write']);
    expect((await call(t.app, 'GET', `/api/aiendpoint/${id}`, read.key)).statusCode).toBe(404);
    expect((await call(t.app, 'GET', '/api/aiendpoint', read.key)).json().data).toEqual([]);
    expect(
      (await call(t.app, 'PATCH', `/api/aiendpoint/${id}`, write.key, { isActive: false })).statusCode,
    ).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/aiendpoint/${id}`, write.key)).statusCode).toBe(404);
    expect(await row(id)).toEqual(before);
  });
});
