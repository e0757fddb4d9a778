import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { insertKey } from './gateway-fixtures';
import { bearer, PASSWORD, seedUser, signIn } from './identity-helpers';

let t: TTestApp;
let auth: Record<string, string>;
let accountId: string;
let userId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ userId, accountId } = await seedUser(t.app, { email: 'owner@x.io', accountName: 'Before' }));
  auth = bearer((await signIn(t.app, 'owner@x.io')).token);
});
afterAll(async () => t?.close());

const NUL = 'bad\u0000value';

describe('U+0000 in a string field is a 400 naming the field', () => {
  const cases: {
    name: string;
    method: 'POST' | 'PATCH';
    url: string;
    body: object;
    field: string;
    signedIn?: boolean;
  }[] = [
    {
      name: 'sign-up name',
      method: 'POST',
      url: '/api/account',
      field: 'name',
      body: { name: NUL, email: 'new@x.io', password: 'Correct-horse-1' },
    },
    {
      name: 'sign-in email',
      method: 'POST',
      url: '/api/auth',
      field: 'email',
      body: { email: `a${NUL}@x.io`, password: 'x' },
    },
    {
      name: 'endpoint name',
      method: 'POST',
      url: '/api/aiendpoint',
      field: 'name',
      signedIn: true,
      body: { name: NUL, route_name: 'nul-route', route_endpoint: 'https://example.com/v1' },
    },
    {
      name: 'endpoint description',
      method: 'POST',
      url: '/api/aiendpoint',
      field: 'description',
      signedIn: true,
      body: {
        name: 'ok',
        description: NUL,
        route_name: 'nul-route',
        route_endpoint: 'https://example.com/v1',
      },
    },
    {
      name: 'upstream model',
      method: 'POST',
      url: '/api/aiendpoint',
      field: 'config.upstream_model',
      signedIn: true,
      body: {
        name: 'ok',
        route_name: 'nul-route',
        route_endpoint: 'https://example.com/v1',
        config: { upstream_model: NUL },
      },
    },
    {
      name: 'item name',
      method: 'POST',
      url: '/api/newitem',
      field: 'name',
      signedIn: true,
      body: { name: NUL },
    },
    {
      name: 'key name',
      method: 'POST',
      url: '/api/key',
      field: 'name',
      signedIn: true,
      body: { name: NUL, scope: ['gateway.invoke'] },
    },
    {
      name: 'profile name',
      method: 'PATCH',
      url: '/api/user',
      field: 'name',
      signedIn: true,
      body: { name: NUL },
    },
    {
      name: 'feedback',
      method: 'POST',
      url: '/api/feedback',
      field: 'comment',
      signedIn: true,
      body: { rating: 'positive', comment: NUL },
    },
    {
      name: 'event metadata',
      method: 'POST',
      url: '/api/event',
      field: 'metadata.note',
      signedIn: true,
      body: { name: 'clicked', metadata: { note: NUL } },
    },
    {
      name: 'a key of event metadata',
      method: 'POST',
      url: '/api/event',
      field: 'metadata.ke',
      signedIn: true,
      body: { name: 'clicked', metadata: { 'k\u0000e': 1 } },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const res = await t.app.inject({
        method: c.method,
        url: c.url,
        payload: c.body,
        headers: c.signedIn ? auth : {},
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        inputError: c.field,
        message: expect.stringMatching(/NUL character/),
      });
    });
  }

  it('in a query string too, and the Spanish message', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/aiendpoint?search=a%00b',
      headers: { ...auth, 'accept-language': 'es' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      inputError: 'search',
      message: expect.stringMatching(/carácter NUL/),
    });
  });

  it("in the gateway's model", async () => {
    const key = await insertKey(t.db, t.config.secret, accountId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${key.raw}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: NUL, messages: [] }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/"model" must not contain a NUL/);
  });
});

describe('deeply nested JSON', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  it('5,000 levels is a 400 on the console API and the gateway, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: `{"name":"x","metadata":${deep(5000)}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/nested too deeply/);
    const arrays = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '['.repeat(5000) + ']'.repeat(5000),
    });
    expect(arrays.statusCode).toBe(400);
    const key = await insertKey(t.db, t.config.secret, accountId);
    const gateway = await t.app.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${key.raw}`, 'content-type': 'application/json' },
      payload: `{"model":"any","messages":${deep(5000)}}`,
    });
    expect(gateway.statusCode).toBe(400);
  });

  it('32 levels still parse; brackets inside strings do not count', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: `{"name":"x","metadata":{"s":"${'{['.repeat(100)}","d":${deep(30)}}}`,
    });
    expect(ok.statusCode).toBeLessThan(300);
  });
});

describe('PATCH /api/user is all or nothing', () => {
  it('a 409 on the email leaves the account name and the profile unchanged', async () => {
    await seedUser(t.app, { email: 'taken@x.io' });
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/user',
      headers: auth,
      payload: { account_name: 'After', name: 'Changed', email: 'taken@x.io', password: PASSWORD },
    });
    expect(res.statusCode).toBe(409);
    const [account] = await t.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(account!.name).toBe('Before');
    const [user] = await t.db.select().from(users).where(eq(users.id, userId));
    expect(user).toMatchObject({ name: 'owner', email: 'owner@x.io' });
  });
});
