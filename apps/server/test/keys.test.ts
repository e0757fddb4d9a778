import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, API_KEY_SCOPES } from '@air/shared/schemas/api-key';
import { accounts, apiKeys } from '../src/db/schema';
import type { TChange } from '../src/lib/change-bus';
import type { TServices } from '../src/core/services';
import { sha256 } from '../src/lib/crypto';
import { createKey, deleteKeys, listKeys } from '../src/modules/keys/service';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, createApiKey, type TActor } from './support/actors';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, auth?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: auth ? bearer(auth) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function keyRow(id: string) {
  const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

describe('API keys', () => {
  let dev: TActor;
  beforeAll(async () => {
    dev = await createActor(t.app, { role: 'developer' });
  });

  it('lists the scopes', async () => {
    const response = await call('GET', '/api/key/scopes', dev.token);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([...API_KEY_SCOPES]);
  });

  it('creates a key: full key once, masked in the list, hash and sealed copy stored, revealed on demand', async () => {
    const created = await call('POST', '/api/key', dev.token, {
      name: 'CI key',
      scope: ['aiendpoint.write', 'gateway.invoke', 'gateway.invoke'],
    });
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(data.full_key).toMatch(API_KEY_PATTERN);
    expect(data.key).toBe(`${data.full_key.slice(0, 8)}…`);
    expect(data).toMatchObject({
      name: 'CI key',
      active: true,
      scope: ['gateway.invoke', 'aiendpoint.write'],
    });
    expect(created.json().message).toMatch(/reveal of it is recorded in the activity log/);

    const row = await keyRow(data.id);
    expect(row!.keyHash).toBe(sha256(data.full_key));
    expect(row!.keyEnc).not.toContain(data.full_key);
    expect(row!.keyPrefix).toBe(data.full_key.slice(0, 8));

    const list = await call('GET', '/api/key', dev.token);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(data.full_key);
    expect(list.body).not.toContain('full_key');
    const listed = list.json().data.find((k: { id: string }) => k.id === data.id);
    expect(listed).toEqual({
      id: data.id,
      name: 'CI key',
      key: data.key,
      scope: ['gateway.invoke', 'aiendpoint.write'],
      active: true,
      date_created: expect.any(String),
      last_used: null,
      expires_at: null,
      routes: null,
      monthly_calls: null,
      tokens_per_minute: null,
      monthly_spend: null,
      allowed_origins: [],
      tools: null,
      tools_read_only: false,
      // The key list answers each key's use this period (issue 38 item 2): none yet.
      usage: {
        period: expect.any(String),
        calls: 0,
        refused: 0,
        limit_reached: false,
        tokens: 0,
        spend: 0,
        budget_reached: false,
        currency: 'usd',
      },
    });

    const revealed = await call('GET', `/api/key/${data.id}`, dev.token);
    expect(revealed.statusCode).toBe(200);
    expect(revealed.json().data.key).toBe(data.full_key);
    // Each reveal is recorded in the activity log: who revealed which key (issue 38).
    const owner = await createActor(t.app, { role: 'owner', accountId: dev.accountId });
    const log = await call('GET', '/api/account/activity?type=key.revealed', owner.token);
    expect(log.statusCode).toBe(200);
    expect(log.json().data.items).toMatchObject([
      { type: 'key.revealed', actor: { email: dev.email }, data: { name: 'CI key' } },
    ]);
  });

  it('validates with the spec messages, in English and Spanish', async () => {
    const noName = await call('POST', '/api/key', dev.token, { scope: ['usage.read'] });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toEqual({
      code: 'validation',
      message: 'Please provide a descriptive name for your key',
      inputError: 'name',
    });
    const blankName = await call('POST', '/api/key', dev.token, { name: '   ', scope: ['usage.read'] });
    expect(blankName.json().message).toBe('Please provide a descriptive name for your key');
    const noScope = await call('POST', '/api/key', dev.token, { name: 'k', scope: [] });
    expect(noScope.statusCode).toBe(400);
    expect(noScope.json()).toEqual({
      code: 'validation',
      message: 'Please select at least one scope',
      inputError: 'scope',
    });
    const missingScope = await call('POST', '/api/key', dev.token, { name: 'k' });
    expect(missingScope.json()).toEqual({
      code: 'validation',
      message: 'Please select at least one scope',
      inputError: 'scope',
    });
    const badScope = await call('POST', '/api/key', dev.token, { name: 'k', scope: ['root'] });
    expect(badScope.statusCode).toBe(400);
    expect(badScope.json().inputError).toBe('scope.0');
    const extra = await call('POST', '/api/key', dev.token, {
      name: 'k',
      scope: ['usage.read'],
      admin: true,
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().inputError).toBe('admin');

    const spanish = await t.app.inject({
      method: 'POST',
      url: '/api/key',
      headers: { ...bearer(dev.token), 'accept-language': 'es' },
      payload: { scope: ['usage.read'] },
    });
    expect(spanish.json().message).toBe('Indica un nombre descriptivo para tu clave');
    expect(await call('GET', '/api/key', dev.token).then((r) => r.json().data.length)).toBe(1);
  });

  it('edits name and scope, revokes, and refuses to reactivate', async () => {
    const { id } = await createApiKey(t.app, dev, ['usage.read'], 'before');
    const edited = await call('PATCH', `/api/key/${id}`, dev.token, {
      name: 'after',
      scope: ['account.read', 'usage.read'],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ name: 'after', scope: ['usage.read', 'account.read'] });
    const emptyScope = await call('PATCH', `/api/key/${id}`, dev.token, { scope: [] });
    expect(emptyScope.json()).toEqual({
      code: 'validation',
      message: 'Please select at least one scope',
      inputError: 'scope',
    });

    const revoked = await call('PATCH', `/api/key/${id}`, dev.token, { active: false });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.active).toBe(false);
    expect(revoked.json().message).toBe('API key revoked');
    expect((await keyRow(id))!.active).toBe(false);

    const reactivate = await call('PATCH', `/api/key/${id}`, dev.token, { active: true });
    expect(reactivate.statusCode).toBe(400);
    expect(reactivate.json().inputError).toBe('active');
    expect((await keyRow(id))!.active).toBe(false);
  });

  it('deletes by { ids } or a bare array; all or nothing', async () => {
    const a = await createApiKey(t.app, dev, ['usage.read']);
    const b = await createApiKey(t.app, dev, ['usage.read']);
    const c = await createApiKey(t.app, dev, ['usage.read']);
    const other = await createActor(t.app, { role: 'owner' });
    const foreign = await createApiKey(t.app, other, ['usage.read']);

    const mixed = await call('DELETE', '/api/key', dev.token, { ids: [a.id, foreign.id] });
    expect(mixed.statusCode).toBe(404);
    expect(await keyRow(a.id)).toBeDefined();
    expect(await keyRow(foreign.id)).toBeDefined();

    const byObject = await call('DELETE', '/api/key', dev.token, { ids: [a.id] });
    expect(byObject.statusCode).toBe(200);
    expect(byObject.json().data).toEqual({ deleted: 1 });
    const byArray = await call('DELETE', '/api/key', dev.token, [b.id, c.id]);
    expect(byArray.statusCode).toBe(200);
    expect(byArray.json().data).toEqual({ deleted: 2 });
    for (const id of [a.id, b.id, c.id]) expect(await keyRow(id)).toBeUndefined();

    expect((await call('DELETE', '/api/key', dev.token, [])).statusCode).toBe(400);
    expect((await call('DELETE', '/api/key', dev.token, ['nope'])).statusCode).toBe(400);
  });

  it('publishes every change on the change bus', async () => {
    const seen: TChange[] = [];
    const unsubscribe = t.app.changes.subscribe((change) => seen.push(change));
    try {
      const { id, key } = await createApiKey(t.app, dev, ['usage.read']);
      const keyHash = sha256(key);
      await call('PATCH', `/api/key/${id}`, dev.token, { scope: ['account.read'] });
      await call('PATCH', `/api/key/${id}`, dev.token, { active: false });
      await call('DELETE', '/api/key', dev.token, [id]);
      expect(seen.filter((c) => c.kind === 'api_key' && c.keyHash === keyHash)).toHaveLength(4);
    } finally {
      unsubscribe();
    }
  });
});

describe('API key permissions', () => {
  it('needs a developer session: 401 without, 403 for user and admin, owner allowed', async () => {
    expect((await call('GET', '/api/key')).statusCode).toBe(401);
    expect((await call('GET', '/api/key', 'not-a-token')).statusCode).toBe(401);
    const owner = await createActor(t.app, { role: 'owner' });
    const user = await createActor(t.app, { role: 'user', accountId: owner.accountId });
    const admin = await createActor(t.app, { role: 'admin', accountId: owner.accountId });
    for (const actor of [user, admin]) {
      expect((await call('GET', '/api/key', actor.token)).statusCode).toBe(403);
      expect(
        (await call('POST', '/api/key', actor.token, { name: 'x', scope: ['usage.read'] })).statusCode,
      ).toBe(403);
    }
    expect((await call('GET', '/api/key', owner.token)).statusCode).toBe(200);
    const unverified = await createActor(t.app, { role: 'owner', verified: false });
    const refused = await call('POST', '/api/key', unverified.token, { name: 'x', scope: ['usage.read'] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Please verify your email address first');
  });

  it('refuses keys on key management, whatever their scopes', async () => {
    const owner = await createActor(t.app);
    const { id, key } = await createApiKey(t.app, owner, [...API_KEY_SCOPES]);
    expect((await call('GET', '/api/key', key)).statusCode).toBe(403);
    expect((await call('GET', `/api/key/${id}`, key)).statusCode).toBe(403);
    expect((await call('POST', '/api/key', key, { name: 'x', scope: ['usage.read'] })).statusCode).toBe(403);
    expect((await call('DELETE', '/api/key', key, [id])).statusCode).toBe(403);
    expect(await keyRow(id)).toBeDefined();
  });
});

describe('API key account isolation', () => {
  it("answers 404 to another account's developer and changes nothing", async () => {
    const owner = await createActor(t.app);
    const intruder = await createActor(t.app, { role: 'developer' });
    const { id } = await createApiKey(t.app, owner, ['usage.read'], 'mine');

    expect((await call('GET', `/api/key/${id}`, intruder.token)).statusCode).toBe(404);
    const patch = await call('PATCH', `/api/key/${id}`, intruder.token, { name: 'stolen', active: false });
    expect(patch.statusCode).toBe(404);
    expect((await call('DELETE', '/api/key', intruder.token, [id])).statusCode).toBe(404);
    const list = await call('GET', '/api/key', intruder.token);
    expect(list.json().data).toEqual([]);

    const row = await keyRow(id);
    expect(row).toMatchObject({ name: 'mine', active: true, accountId: owner.accountId });
    expect((await call('GET', `/api/key/not-a-uuid`, owner.token)).json()).toMatchObject({
      inputError: 'id',
    });
  });
});

describe('API keys as credentials', () => {
  it('a revoked or deleted key is refused on the very next request (through the cache)', async () => {
    const owner = await createActor(t.app);
    const first = await createApiKey(t.app, owner, ['aiendpoint.read']);
    // Twice: the second answer comes from the cache.
    expect((await call('GET', '/api/aiendpoint', first.key)).statusCode).toBe(200);
    // Proof that answers are cached: a write behind the service's back is not seen…
    await t.db.update(apiKeys).set({ active: false }).where(eq(apiKeys.id, first.id));
    expect((await call('GET', '/api/aiendpoint', first.key)).statusCode).toBe(200);
    // …while a revocation through the service (which publishes the change) is, at once.
    await call('PATCH', `/api/key/${first.id}`, owner.token, { active: false });
    expect((await call('GET', '/api/aiendpoint', first.key)).statusCode).toBe(401);

    const second = await createApiKey(t.app, owner, ['aiendpoint.read']);
    expect((await call('GET', '/api/aiendpoint', second.key)).statusCode).toBe(200);
    await call('DELETE', '/api/key', owner.token, { ids: [second.id] });
    expect((await call('GET', '/api/aiendpoint', second.key)).statusCode).toBe(401);
  });

  it("a closed account's keys are refused once the account change is published", async () => {
    const owner = await createActor(t.app);
    const { key } = await createApiKey(t.app, owner, ['aiendpoint.read']);
    expect((await call('GET', '/api/aiendpoint', key)).statusCode).toBe(200);
    await t.db.update(accounts).set({ closedAt: new Date() }).where(eq(accounts.id, owner.accountId));
    await t.app.changes.publish({ kind: 'account', accountId: owner.accountId });
    expect(await t.app.resolveApiKey(key)).toBeNull();
  });

  it('with Redis as the change bus, a revoked key is refused on the next request and on other instances', async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const first = await createTestApp({ redisUrl });
    try {
      // A second instance on the same database and bus.
      const { buildApp } = await import('../src/app');
      const second = await buildApp(first.config, { database: first.database });
      try {
        const owner = await createActor(first.app);
        const { id, key } = await createApiKey(first.app, owner, ['aiendpoint.read']);
        const list = (app: typeof first.app) =>
          app.inject({ method: 'GET', url: '/api/aiendpoint', headers: bearer(key) });
        expect((await list(first.app)).statusCode).toBe(200);
        expect((await list(second)).statusCode).toBe(200);
        const revoke = await first.app.inject({
          method: 'PATCH',
          url: `/api/key/${id}`,
          headers: bearer(owner.token),
          payload: { active: false },
        });
        expect(revoke.statusCode).toBe(200);
        expect((await list(first.app)).statusCode).toBe(401);
        await expect.poll(async () => (await list(second)).statusCode, { timeout: 5000 }).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });

  it('a scope change applies at once', async () => {
    const owner = await createActor(t.app);
    const { id, key } = await createApiKey(t.app, owner, ['aiendpoint.read']);
    expect((await call('GET', '/api/aiendpoint', key)).statusCode).toBe(200);
    await call('PATCH', `/api/key/${id}`, owner.token, { scope: ['usage.read'] });
    expect((await call('GET', '/api/aiendpoint', key)).statusCode).toBe(403);
  });

  it('one key object from one cache for every request, from either header, dropped when the bus resets', async () => {
    const owner = await createActor(t.app);
    const { id, key } = await createApiKey(t.app, owner, ['aiendpoint.read']);
    const first = await t.app.resolveApiKey(key);
    // A hit answers synchronously, with the very object the loader built (no copy per request).
    expect(t.app.resolveApiKey(key)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const viaHeader = await t.app.inject({ url: '/api/aiendpoint', headers: { 'x-api-key': key } });
    expect(viaHeader.statusCode).toBe(200);
    // A reset (Redis came back: a change may have been missed) drops every cached key.
    await t.db.update(apiKeys).set({ active: false }).where(eq(apiKeys.id, id));
    expect((await call('GET', '/api/aiendpoint', key)).statusCode).toBe(200);
    await t.app.changes.publish({ kind: 'reset' });
    expect((await call('GET', '/api/aiendpoint', key)).statusCode).toBe(401);
  });

  it('a burst for one uncached key joins one look-up: it costs its address one unknown look-up', async () => {
    const address = '198.51.100.77';
    const unknown = `air_${'x'.repeat(40)}`;
    const get = (apiKey: string) =>
      t.app.inject({ url: '/api/aiendpoint', remoteAddress: address, headers: bearer(apiKey) });
    const burst = await Promise.all(Array.from({ length: 50 }, () => get(unknown)));
    expect(burst.every((res) => res.statusCode === 401)).toBe(true);
    // 29 of the address's 30 unknown look-ups a minute are left.
    const others = [];
    for (let i = 0; i < 30; i++) others.push((await get(`air_${String(i).padStart(40, 'y')}`)).statusCode);
    expect(others.filter((status) => status === 401)).toHaveLength(29);
    expect(others[29]).toBe(429);
  });

  it('resolveApiKey answers only for well-formed, active keys', async () => {
    const owner = await createActor(t.app);
    const { id, key } = await createApiKey(t.app, owner, ['gateway.invoke']);
    expect(await t.app.resolveApiKey(key)).toEqual({
      kind: 'key',
      accountId: owner.accountId,
      keyId: id,
      scopes: ['gateway.invoke'],
      expiresAt: null,
      routes: null,
      monthlyCalls: null,
      tokensPerMinute: null,
      monthlySpendMinor: null,
      allowedOrigins: new Set(),
      tools: null,
      toolsReadOnly: false,
    });
    expect(await t.app.resolveApiKey(`${key}x`)).toBeNull();
    expect(await t.app.resolveApiKey(key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')))).toBeNull();
    expect(await t.app.resolveApiKey('air_short')).toBeNull();
  });

  it('a key used again answers as itself: other keys, a malformed one between, and a revocation', async () => {
    const owner = await createActor(t.app);
    const a = await createApiKey(t.app, owner, ['gateway.invoke']);
    const b = await createApiKey(t.app, owner, ['usage.read']);
    const idOf = async (rawKey: string) => (await t.app.resolveApiKey(rawKey))?.keyId ?? null;
    expect(await idOf(a.key)).toBe(a.id);
    expect(await idOf(a.key)).toBe(a.id);
    expect(await idOf(b.key)).toBe(b.id);
    expect(await idOf(a.key)).toBe(a.id);
    expect(await idOf(`${a.key}x`)).toBeNull();
    expect(await idOf(a.key)).toBe(a.id);
    // Once the last key is forgotten, an empty string is refused by its form: nothing looked up,
    // no address read.
    t.app.forgetApiKey(sha256(b.key));
    const noAddress = {
      get ip(): string {
        throw new Error('no look-up expected');
      },
    };
    expect(t.app.resolveApiKey('', noAddress)).toBeNull();
    // Revoked through the API while it is the last key used: refused on its next use.
    expect((await call('DELETE', '/api/key', owner.token, { ids: [a.id] })).statusCode).toBe(200);
    expect(await idOf(a.key)).toBeNull();
    expect(await idOf(b.key)).toBe(b.id);
  });

  it("reads the client's address only to look up a key that is not cached", async () => {
    const owner = await createActor(t.app);
    const { key } = await createApiKey(t.app, owner, ['gateway.invoke']);
    let reads = 0;
    const client = {
      get ip() {
        reads++;
        return '198.51.100.78';
      },
    };
    t.app.forgetApiKey(sha256(key));
    expect(await t.app.resolveApiKey(key, client)).not.toBeNull();
    expect(reads).toBe(1);
    for (let i = 0; i < 5; i++) expect(t.app.resolveApiKey(key, client)).not.toBeNull();
    expect(reads).toBe(1);
  });
});

describe('the account.read scope', () => {
  const reads = [
    '/api/user',
    '/api/account/usage',
    '/api/account/plans',
    '/api/account/plan',
    '/api/account/subscription',
  ];

  it('reads the account with a key: who the key is, usage, plans, plan and subscription', async () => {
    const dev = await createActor(t.app, { role: 'developer' });
    const { id, key } = await createApiKey(t.app, dev, ['account.read']);
    for (const url of reads)
      expect({ url, status: (await call('GET', url, key)).statusCode }).toEqual({ url, status: 200 });
    const [account] = await t.db.select().from(accounts).where(eq(accounts.id, dev.accountId));
    expect((await call('GET', '/api/user', key)).json().data).toEqual({
      kind: 'api_key',
      key_id: id,
      key_name: expect.any(String),
      scope: ['account.read'],
      account_id: dev.accountId,
      account_name: account!.name,
      plan: account!.planId,
    });
    expect((await call('GET', '/api/account/usage', key)).json().data[0]).toMatchObject({ label: 'calls' });
  });

  it('refuses the same reads to a key without it, and every write to a key with it', async () => {
    const dev = await createActor(t.app, { role: 'developer' });
    const { key: other } = await createApiKey(t.app, dev, ['gateway.invoke', 'aiendpoint.read']);
    for (const url of reads)
      expect({ url, status: (await call('GET', url, other)).statusCode }).toEqual({ url, status: 403 });
    const { key } = await createApiKey(t.app, dev, ['account.read']);
    expect((await call('PATCH', '/api/user', key, { name: 'Key' })).statusCode).toBe(403);
    expect((await call('PATCH', '/api/account/plan', key, { plan: 'free' })).statusCode).toBe(403);
    expect((await call('GET', '/api/account/invoice', key)).statusCode).toBe(403);
    expect((await call('GET', '/api/key', key)).statusCode).toBe(403);
  });
});

describe('the keys service without the web framework', () => {
  it('a job creates and revokes a key with plain values (TServices), and the API sees both', async () => {
    const owner = await createActor(t.app, { role: 'developer' });
    const { app } = t;
    // What a job or a worker would hold: the app's parts, not the Fastify instance.
    const services: TServices = {
      config: app.config,
      db: app.db,
      plans: app.plans,
      mailer: app.mailer,
      changes: app.changes,
      attempts: app.attempts,
      billing: app.billing,
      sessionCache: app.sessionCache,
      sessionActivity: app.sessionActivity,
      forgetApiKey: (hash) => app.forgetApiKey(hash),
      webhooks: app.webhooks,
      log: app.log,
    };
    const created = await createKey(services, owner.accountId, {
      name: 'From a job',
      scope: ['gateway.invoke'],
    });
    const listed = (await listKeys(services, owner.accountId)).map((key) => key.name);
    expect(listed).toContain('From a job');
    const seen = await call('GET', `/api/key/${created.id}`, owner.token);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.name).toBe('From a job');
    expect((await call('GET', '/api/v1/models', created.full_key)).statusCode).toBe(200);
    expect(await deleteKeys(services, owner.accountId, [created.id])).toBe(1);
    expect((await call('GET', '/api/v1/models', created.full_key)).statusCode).toBe(401);
  });
});
