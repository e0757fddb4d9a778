import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entitlementsFor } from '../src/modules/billing/entitlements';
import { accounts, aiEndpoints, quotaWarnings, subscriptions, usageEvents } from '../src/db/schema';
import { checkLimitAlerts } from '../src/modules/usage/quota-warnings';
import { periodOf } from '../src/modules/usage/period';
import { storedCalls } from '../src/modules/usage/service';
import { createTestApp, type TTestApp } from './helpers';
import { createActor, type TActor } from './support/actors';
import { insertEndpoint, insertKey, startMockUpstream, type TMockUpstream } from './gateway-fixtures';
import { freePlansFile, injectChat } from './usage-fixtures';

interface TReceived {
  to: string[];
  raw: string;
}

let t: TTestApp;
let upstream: TMockUpstream;
let smtp: SMTPServer;
const received: TReceived[] = [];
const SUPPORT = 'help-desk@air.test';

beforeAll(async () => {
  upstream = await startMockUpstream();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: raw.replace(/=\r?\n/g, '') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  t = await createTestApp({
    upstreamAllowPrivate: true,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    supportEmail: SUPPORT,
    plansFile: freePlansFile([
      ['free', 'Free', 1000],
      ['five', 'Five', 5],
    ]),
  });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

const call = (rawKey: string, model: string, stream = false) => injectChat(t.app, rawKey, model, stream);

function get(url: string, token: string) {
  return t.app.inject({ method: 'GET', url, headers: auth(token) });
}

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** A caller with two keys calling its own endpoint, another's shared one and a failing one. */
async function trafficFixture() {
  const provider = await createActor(t.app, { accountName: 'Provider Org' });
  const caller = await createActor(t.app, { accountName: 'Caller Org' });
  const suffix = caller.accountId.slice(0, 8);
  const own = await insertEndpoint(t.db, t.config.secret, caller.accountId, {
    routeName: `own-${suffix}/ok`,
    routeEndpoint: `${upstream.url}/ok`,
  });
  const failing = await insertEndpoint(t.db, t.config.secret, caller.accountId, {
    routeName: `own-${suffix}/error`,
    routeEndpoint: `${upstream.url}/error`,
  });
  const shared = await insertEndpoint(t.db, t.config.secret, provider.accountId, {
    routeName: `shared-${suffix}/ok`,
    routeEndpoint: `${upstream.url}/ok`,
    isShared: true,
    isPrivate: false,
  });
  const keyA = await insertKey(t.db, t.config.secret, caller.accountId);
  const keyB = await insertKey(t.db, t.config.secret, caller.accountId);
  return { provider, caller, own, failing, shared, keyA, keyB };
}

type TTraffic = Awaited<ReturnType<typeof trafficFixture>>;

/**
 * A metering row of the caller's own call to its own endpoint with key A (the way the metering
 * writer writes it; the roll-up follows every insert), `row` overriding any of it.
 */
function ownCall(
  f: TTraffic,
  row: Partial<typeof usageEvents.$inferInsert> & { latencyMs: number; createdAt: Date },
) {
  return {
    callerAccountId: f.caller.accountId,
    keyId: f.keyA.id,
    endpointId: f.own.id,
    providerAccountId: f.caller.accountId,
    status: 200,
    ...row,
  };
}

describe('usage insight', () => {
  it('aggregates match the metering rows by day, endpoint, key, status and tokens', async () => {
    const f = await trafficFixture();
    const results = [
      await call(f.keyA.raw, f.own.routeName),
      await call(f.keyA.raw, f.own.routeName),
      await call(f.keyA.raw, f.own.routeName, true),
      await call(f.keyB.raw, f.failing.routeName),
      await call(f.keyB.raw, f.shared.routeName),
    ];
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 429, 200]);
    // Older calls, written the way the metering writer writes them (the roll-up follows every insert).
    await t.db.insert(usageEvents).values([
      ownCall(f, {
        status: 502,
        latencyMs: 30,
        errorCode: 'upstream_unreachable',
        createdAt: new Date(`${daysAgo(3)}T10:00:00Z`),
      }),
      ownCall(f, {
        keyId: f.keyB.id,
        latencyMs: 120,
        promptTokens: 5,
        completionTokens: 9,
        tokensEstimated: true,
        createdAt: new Date(`${daysAgo(3)}T11:00:00Z`),
      }),
    ]);

    const res = await get(
      `/api/account/usage/insight?period=custom&from=${daysAgo(5)}&to=${today()}`,
      f.caller.token,
    );
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.period).toEqual({ preset: 'custom', from: daysAgo(5), to: today() });
    const { caller } = data;

    // What the metering rows say, counted straight from usage_events.
    const rows = await t.db
      .select()
      .from(usageEvents)
      .where(eq(usageEvents.callerAccountId, f.caller.accountId));
    expect(rows).toHaveLength(7);
    const sum = (list: typeof rows, pick: (row: (typeof rows)[number]) => number | null) =>
      list.reduce((total, row) => total + (pick(row) ?? 0), 0);
    expect(caller.totals).toMatchObject({
      calls: 7,
      status_2xx: 5,
      status_4xx: 1,
      status_5xx: 1,
      prompt_tokens: sum(rows, (r) => r.promptTokens),
      completion_tokens: sum(rows, (r) => r.completionTokens),
      estimated_calls: rows.filter((r) => r.tokensEstimated).length,
    });
    // The mock reports 11 + 7 tokens on each non-streamed 2xx answer (three of them), 5 + 9 were
    // stored directly, and the streamed call carries what the gateway read or estimated for it.
    const streamedRow = rows.find((r) => r.streamed)!;
    expect(streamedRow).toMatchObject({ status: 200, errorCode: null });
    expect(caller.totals.prompt_tokens).toBe(3 * 11 + 5 + (streamedRow.promptTokens ?? 0));
    expect(caller.totals.completion_tokens).toBe(3 * 7 + 9 + (streamedRow.completionTokens ?? 0));
    expect(rows.filter((r) => r.errorCode === 'upstream_unreachable')).toHaveLength(1);
    expect(caller.totals.latency_p50_ms).toBeGreaterThanOrEqual(0);
    expect(caller.totals.latency_p95_ms).toBeGreaterThanOrEqual(caller.totals.latency_p50_ms);

    expect(caller.days).toHaveLength(6);
    const byDay = Object.fromEntries(caller.days.map((d: { day: string }) => [d.day, d]));
    expect(byDay[daysAgo(3)]).toMatchObject({ calls: 2, status_2xx: 1, status_5xx: 1, prompt_tokens: 5 });
    expect(byDay[today()]).toMatchObject({ calls: 5, status_2xx: 4, status_4xx: 1 });
    expect(byDay[daysAgo(1)]).toMatchObject({ calls: 0 });

    const byRoute = Object.fromEntries(
      caller.endpoints.map((e: { route_name: string }) => [e.route_name, e]),
    );
    expect(byRoute[f.own.routeName]).toMatchObject({
      calls: 5,
      status_2xx: 4,
      status_5xx: 1,
      estimated_calls: rows.filter((r) => r.tokensEstimated && r.endpointId === f.own.id).length,
    });
    expect(byRoute[f.failing.routeName]).toMatchObject({ calls: 1, status_4xx: 1, prompt_tokens: 0 });
    expect(byRoute[f.shared.routeName]).toMatchObject({ calls: 1, status_2xx: 1, prompt_tokens: 11 });
    const byKey = Object.fromEntries(caller.keys.map((k: { key_id: string }) => [k.key_id, k]));
    expect(byKey[f.keyA.id]).toMatchObject({ calls: 4, key_name: 'test key' });
    expect(byKey[f.keyB.id]).toMatchObject({ calls: 3 });

    // A preset period: last 7 days holds them all, the quota counts this month's gateway calls.
    const week = (await get('/api/account/usage/insight?period=last_7_days', f.caller.token)).json().data;
    expect(week.caller.totals.calls).toBe(7);
    expect(week.quota).toMatchObject({ calls: 5, quota: 1000, percent: 0, reached: false });

    // Nothing of this account shows to another one.
    const stranger = await createActor(t.app);
    const other = (await get('/api/account/usage/insight?period=last_7_days', stranger.token)).json().data;
    expect(other.caller.totals.calls).toBe(0);
    expect(other.caller.endpoints).toEqual([]);
    expect(other.provider.totals.calls).toBe(0);
  });

  it('p50 and p95 are latencies of stored calls, not bounds of the roll-up buckets', async () => {
    const f = await trafficFixture();
    // Eight calls of 120-190 ms, one of 900 ms, the slowest 1,023 ms: the 1-2 s bucket's
    // interpolation said 1,500 ms for p95; the stored calls say 1,023 ms.
    const latencies = [120, 130, 140, 150, 160, 170, 180, 190, 900, 1023];
    await t.db.insert(usageEvents).values(
      latencies.map((latencyMs, i) =>
        ownCall(f, {
          latencyMs,
          createdAt: new Date(`${daysAgo(2)}T10:00:${String(i).padStart(2, '0')}Z`),
        }),
      ),
    );
    // Outside the period: not measured.
    await t.db
      .insert(usageEvents)
      .values(ownCall(f, { latencyMs: 99_000, createdAt: new Date(`${daysAgo(9)}T10:00:00Z`) }));
    const url = `/api/account/usage/insight?period=custom&from=${daysAgo(5)}&to=${today()}`;
    const { totals } = (await get(url, f.caller.token)).json().data.caller;
    expect(totals.calls).toBe(10);
    expect(totals.latency_p50_ms).toBe(160);
    expect(totals.latency_p95_ms).toBe(1023);
    // A period with no calls has no percentiles.
    const empty = (
      await get(
        `/api/account/usage/insight?period=custom&from=${daysAgo(20)}&to=${daysAgo(15)}`,
        f.caller.token,
      )
    ).json().data.caller.totals;
    expect(empty).toMatchObject({ calls: 0, latency_p50_ms: null, latency_p95_ms: null });
  });

  it("provider view: other accounts' calls to a shared endpoint, per endpoint, organisation and day", async () => {
    const f = await trafficFixture();
    for (let i = 0; i < 3; i++) expect((await call(f.keyA.raw, f.shared.routeName)).statusCode).toBe(200);
    expect((await call(f.keyB.raw, f.own.routeName)).statusCode).toBe(200);
    // The provider's own calls to its endpoint are caller usage, not served to others.
    const providerKey = await insertKey(t.db, t.config.secret, f.provider.accountId);
    expect((await call(providerKey.raw, f.shared.routeName)).statusCode).toBe(200);

    const data = (await get('/api/account/usage/insight?period=last_7_days', f.provider.token)).json().data;
    expect(data.provider.totals.calls).toBe(3);
    expect(data.provider.endpoints).toEqual([
      { endpoint_id: f.shared.id, route_name: f.shared.routeName, calls: 3 },
    ]);
    expect(data.provider.callers).toEqual([{ account_name: 'Caller Org', calls: 3 }]);
    expect(data.provider.days.find((d: { day: string }) => d.day === today())).toEqual({
      day: today(),
      calls: 3,
    });
    expect(data.caller.totals.calls).toBe(1);
    // The caller's call to its own endpoint is not the provider's business.
    expect(JSON.stringify(data)).not.toContain(f.own.routeName);
  });

  it('validates the period and needs usage.read', async () => {
    const actor = await createActor(t.app);
    const bad = await get('/api/account/usage/insight?period=custom&from=2026-01-10', actor.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().inputError).toBe('to');
    expect(
      (await get('/api/account/usage/insight?period=custom&from=2026-02-10&to=2026-01-10', actor.token))
        .statusCode,
    ).toBe(400);
    expect((await get('/api/account/usage/insight?period=yearly', actor.token)).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/account/usage/insight' })).statusCode).toBe(401);
    const invokeOnly = await insertKey(t.db, t.config.secret, actor.accountId, ['gateway.invoke']);
    expect((await get('/api/account/usage/log', invokeOnly.raw)).statusCode).toBe(403);
  });

  it('allows a custom period of 366 days at most, both sides of the boundary (issue 37, item 7c)', async () => {
    const actor = await createActor(t.app);
    const custom = (from: string, to: string) =>
      get(`/api/account/usage/insight?period=custom&from=${from}&to=${to}`, actor.token);
    // The largest period: 366 days, first and last included.
    const longest = await custom('2026-01-01', '2027-01-01');
    expect(longest.statusCode, longest.body).toBe(200);
    expect(longest.json().data.period).toEqual({ preset: 'custom', from: '2026-01-01', to: '2027-01-01' });
    expect(longest.json().data.caller.days).toHaveLength(366);
    // One day more is refused on `to`.
    const tooLong = await custom('2026-01-01', '2027-01-02');
    expect(tooLong.statusCode).toBe(400);
    // The message counts days the way the rule does: 2026-01-01 to 2027-01-02 is 367 days.
    expect(tooLong.json()).toEqual({
      code: 'validation',
      inputError: 'to',
      message: 'Choose a first and last day, 366 days at most (both included)',
    });
    // A leap year counts its 29 February: all of 2028 fits, one day more does not.
    expect((await custom('2028-01-01', '2028-12-31')).statusCode).toBe(200);
    expect((await custom('2028-01-01', '2029-01-01')).statusCode).toBe(400);
  });
});

describe('request log', () => {
  it('lists the last 30 days newest first, filters by route, key and status, pages by cursor', async () => {
    const f = await trafficFixture();
    for (let i = 0; i < 3; i++) await call(f.keyA.raw, f.own.routeName);
    await call(f.keyB.raw, f.failing.routeName);
    await call(f.keyB.raw, f.own.routeName, true);
    await t.db
      .insert(usageEvents)
      .values(ownCall(f, { latencyMs: 10, createdAt: new Date(Date.now() - 31 * 86_400_000) }));

    const all = (await get('/api/account/usage/log', f.caller.token)).json().data;
    expect(all.items).toHaveLength(5);
    expect(all.next_cursor).toBeNull();
    const times = all.items.map((i: { time: string }) => i.time);
    expect([...times].sort().reverse()).toEqual(times);
    const streamed = all.items[0];
    expect(streamed).toMatchObject({
      route_name: f.own.routeName,
      key_id: f.keyB.id,
      key_name: 'test key',
      status: 200,
      streamed: true,
      error_code: null,
      attempts: 1,
      cache_hit: false,
    });
    expect(all.items[1]).toMatchObject({ status: 429, error_code: 'upstream_429', streamed: false });
    expect(all.items[2]).toMatchObject({
      status: 200,
      prompt_tokens: 11,
      completion_tokens: 7,
      tokens_estimated: false,
    });
    expect(JSON.stringify(all)).not.toContain('Hello from the mock');

    const failed = (await get('/api/account/usage/log?status=4xx', f.caller.token)).json().data;
    expect(failed.items.map((i: { status: number }) => i.status)).toEqual([429]);
    const byKey = (await get(`/api/account/usage/log?key_id=${f.keyA.id}`, f.caller.token)).json().data;
    expect(byKey.items).toHaveLength(3);
    const byRoute = (await get(`/api/account/usage/log?endpoint_id=${f.failing.id}`, f.caller.token)).json()
      .data;
    expect(byRoute.items).toHaveLength(1);

    // Pages of two: 2 + 2 + 1, no repeats, the same rows as one page; a new call does not shift them.
    const page1 = (await get('/api/account/usage/log?limit=2', f.caller.token)).json().data;
    await call(f.keyA.raw, f.own.routeName);
    const page2 = (
      await get(`/api/account/usage/log?limit=2&cursor=${page1.next_cursor}`, f.caller.token)
    ).json().data;
    const page3 = (
      await get(`/api/account/usage/log?limit=2&cursor=${page2.next_cursor}`, f.caller.token)
    ).json().data;
    expect(page3.next_cursor).toBeNull();
    const paged = [...page1.items, ...page2.items, ...page3.items].map((i: { id: string }) => i.id);
    expect(paged).toEqual(all.items.map((i: { id: string }) => i.id));

    expect((await get('/api/account/usage/log?cursor=bm9wZQ', f.caller.token)).statusCode).toBe(400);
    const stranger = await createActor(t.app);
    expect((await get('/api/account/usage/log', stranger.token)).json().data.items).toEqual([]);
  });
  it("shows each call's client and upstream format, and the route a fallback's call asked for (issue 40 item 4, issue 38)", async () => {
    const f = await trafficFixture();
    // The failing route (its upstream answers 429) falls back to the caller's own good route.
    await t.db
      .update(aiEndpoints)
      .set({
        routing: { upstreams: [{ url: `${upstream.url}/error`, weight: 1 }], fallbacks: [f.own.routeName] },
      })
      .where(eq(aiEndpoints.id, f.failing.id));
    const fellBack = await call(f.keyA.raw, f.failing.routeName);
    expect([fellBack.statusCode, fellBack.headers['x-air-route']]).toEqual([200, f.own.routeName]);
    expect((await call(f.keyA.raw, f.own.routeName)).statusCode).toBe(200);
    // A row written before formats were logged (no formats, no asked endpoint).
    await t.db
      .insert(usageEvents)
      .values(ownCall(f, { latencyMs: 4, createdAt: new Date(Date.now() - 60_000) }));
    const items = (await get('/api/account/usage/log', f.caller.token)).json().data.items;
    const formats = (item: Record<string, unknown>) => [
      item.route_name,
      item.requested_route_name,
      item.client_format,
      item.upstream_format,
    ];
    expect(items.map(formats)).toEqual([
      [f.own.routeName, null, 'openai', 'openai'],
      [f.own.routeName, f.failing.routeName, 'openai', 'openai'],
      [f.own.routeName, null, null, null],
    ]);
    expect(items[1]).toMatchObject({ attempts: 2, endpoint_id: f.own.id });
    // The asked route filters by the route that answered, as before.
    const byFailing = (await get(`/api/account/usage/log?endpoint_id=${f.failing.id}`, f.caller.token)).json()
      .data;
    expect(byFailing.items).toEqual([]);
  });

  it('stores when each call was counted against the quota, and nothing for a refused one (decision 049)', async () => {
    const f = await trafficFixture();
    const before = Date.now();
    expect((await call(f.keyA.raw, f.own.routeName)).statusCode).toBe(200);
    expect((await call(f.keyA.raw, `no-such-route-${f.caller.accountId.slice(0, 8)}`)).statusCode).toBe(404);
    const after = Date.now();
    // The log's read writes the meter's pending rows (the embedded database's COPY, PostgreSQL's INSERT).
    expect((await get('/api/account/usage/log', f.caller.token)).json().data.items).toHaveLength(2);
    const rows = await t.db
      .select({
        status: usageEvents.status,
        admittedAt: usageEvents.admittedAt,
        createdAt: usageEvents.createdAt,
      })
      .from(usageEvents)
      .where(eq(usageEvents.callerAccountId, f.caller.accountId));
    const answered = rows.find((row) => row.status === 200)!;
    const refused = rows.find((row) => row.status === 404)!;
    expect(answered.admittedAt).not.toBeNull();
    expect(answered.admittedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(answered.admittedAt!.getTime()).toBeLessThanOrEqual(answered.createdAt.getTime());
    expect(answered.createdAt.getTime()).toBeLessThanOrEqual(after);
    expect(refused.admittedAt).toBeNull();
  });

  it('a valid key calling an unknown route is in the request log and the 4xx count, not the quota', async () => {
    const f = await trafficFixture();
    expect((await call(f.keyA.raw, f.own.routeName)).statusCode).toBe(200);
    const missing = await call(f.keyA.raw, `no-such-route-${f.caller.accountId.slice(0, 8)}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('route_not_found');
    // Another account's private route answers like a missing one, and is metered like one.
    const other = await createActor(t.app);
    const hidden = await insertEndpoint(t.db, t.config.secret, other.accountId, {
      routeName: `hidden-${f.caller.accountId.slice(0, 8)}/ok`,
      routeEndpoint: `${upstream.url}/ok`,
    });
    expect((await call(f.keyA.raw, hidden.routeName)).statusCode).toBe(404);

    const log = (await get('/api/account/usage/log', f.caller.token)).json().data;
    expect(log.items).toHaveLength(3);
    expect(log.items[0]).toMatchObject({
      endpoint_id: null,
      route_name: null,
      key_id: f.keyA.id,
      status: 404,
      error_code: 'route_not_found',
      attempts: 0,
    });
    const failed = (await get('/api/account/usage/log?status=4xx', f.caller.token)).json().data;
    expect(failed.items.map((i: { status: number }) => i.status)).toEqual([404, 404]);
    const insight = (await get('/api/account/usage/insight?period=last_7_days', f.caller.token)).json().data;
    expect(insight.caller.totals).toMatchObject({ calls: 3, status_2xx: 1, status_4xx: 2 });
    // The quota counts calls to routes only, and so does a counter seeded from the stored calls.
    expect(insight.quota.calls).toBe(1);
    expect(await storedCalls(t.db, f.caller.accountId, periodOf(Date.now()))).toBe(1);
    // Nothing of it reaches the other account's views.
    const theirs = (await get('/api/account/usage/insight?period=last_7_days', other.token)).json().data;
    expect(theirs.provider.totals.calls).toBe(0);
  });
});

describe('support contact', () => {
  function send(actor: TActor, body: Record<string, unknown>) {
    return t.app.inject({
      method: 'POST',
      url: '/api/utility/mail',
      headers: auth(actor.token),
      payload: body,
    });
  }

  it('mails SUPPORT_EMAIL with account, user and plan, and a copy to the user', async () => {
    const actor = await createActor(t.app, { accountName: 'Acme Support Test', name: 'Lola Ruiz' });
    const before = received.length;
    const res = await send(actor, {
      email: 'lola.contact@example.test',
      name: 'Lola Ruiz',
      template: 'help',
      message: 'My <b>streams</b> stop after 30 s',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/Message sent/);
    const mails = received.slice(before);
    expect(mails).toHaveLength(2);
    const toSupport = mails.find((m) => m.to.includes(SUPPORT))!;
    expect(toSupport.raw).toContain('Subject: Support request from Lola Ruiz (Acme Support Test)');
    expect(toSupport.raw).toContain('My &lt;b&gt;streams&lt;/b&gt; stop after 30 s');
    expect(toSupport.raw).toContain(`Account: Acme Support Test (${actor.accountId})`);
    expect(toSupport.raw).toContain(`(${actor.userId})`);
    expect(toSupport.raw).toContain('Plan: Free');
    expect(toSupport.raw).toContain('lola.contact@example.test');
    const copy = mails.find((m) => m.to.includes(actor.email))!;
    expect(copy.raw).toContain('We received your message');
    expect(copy.raw).toContain('My <b>streams</b> stop after 30 s');
    // The copy goes to the account's address, never to the typed-in one.
    expect(mails.some((m) => m.to.includes('lola.contact@example.test'))).toBe(false);

    const empty = await send(actor, { email: actor.email, name: 'Lola', message: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ inputError: 'message', message: 'Please enter a message' });
  });

  it('allows 5 messages an hour per user, also under 200 concurrent requests', async () => {
    const actor = await createActor(t.app);
    const before = received.length;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        send(actor, { email: actor.email, name: 'Busy', message: `message ${i}` }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(195);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/5 messages in the last hour/);
    expect(received.slice(before).filter((m) => m.to.includes(SUPPORT))).toHaveLength(5);
    // Another user has their own allowance.
    const other = await createActor(t.app);
    expect((await send(other, { email: other.email, name: 'Other', message: 'hi' })).statusCode).toBe(200);
  });

  it('says clearly when no support address is configured; the console learns the docs link', async () => {
    const bare = await createTestApp({ supportEmail: undefined, docsUrl: 'https://docs.example.test/air' });
    try {
      const actor = await createActor(bare.app);
      const res = await bare.app.inject({
        method: 'POST',
        url: '/api/utility/mail',
        headers: auth(actor.token),
        payload: { email: actor.email, name: 'A', message: 'hello' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/support contact is not set up on this server \(SUPPORT_EMAIL\)/);
      const config = await bare.app.inject({ url: '/api/utility/config', headers: auth(actor.token) });
      expect(config.json().data).toEqual({
        docs_url: 'https://docs.example.test/air',
        support_configured: false,
      });
    } finally {
      await bare.close();
    }
    const actor = await createActor(t.app);
    const config = await get('/api/utility/config', actor.token);
    expect(config.json().data).toEqual({ docs_url: '/api/docs', support_configured: true });
  });
});

describe('quota warnings', () => {
  it('mails the owner and the admins once at 50 %, 80 % and 100 % of the monthly quota', async () => {
    const owner = await createActor(t.app, { name: 'Olga Owner' });
    const admin = await createActor(t.app, { accountId: owner.accountId, role: 'admin' });
    const both = [owner.email, admin.email].sort();
    await t.db.update(accounts).set({ planId: 'five' }).where(eq(accounts.id, owner.accountId));
    await t.app.changes.publish({ kind: 'account', accountId: owner.accountId });
    const key = await insertKey(t.db, t.config.secret, owner.accountId);
    const endpoint = await insertEndpoint(t.db, t.config.secret, owner.accountId, {
      routeName: `quota-${owner.accountId.slice(0, 8)}/ok`,
      routeEndpoint: `${upstream.url}/ok`,
    });
    // Mail goes to the loopback SMTP server (this app has SMTP_URL set).
    const warningsTo = () =>
      received.filter((m) => m.to.includes(owner.email) && /gateway calls/.test(m.raw));
    const check = async () => {
      await t.app.inject({ url: '/api/account/usage', headers: auth(owner.token) }); // flushes metering
      return (await checkLimitAlerts(t.app))
        .filter((s) => s.accountId === owner.accountId)
        .map((s) => ({ ...s, to: [...s.to].sort() }));
    };
    const at = (level: number) => [{ accountId: owner.accountId, limit: 'plan_calls', level, to: both }];

    for (let i = 0; i < 2; i++) expect((await call(key.raw, endpoint.routeName)).statusCode).toBe(200);
    expect(await check()).toEqual([]);
    expect((await call(key.raw, endpoint.routeName)).statusCode).toBe(200);
    expect(await check()).toEqual(at(50));
    expect((await call(key.raw, endpoint.routeName)).statusCode).toBe(200);
    expect(await check()).toEqual(at(80));
    expect(await check()).toEqual([]);
    expect((await call(key.raw, endpoint.routeName)).statusCode).toBe(200);
    expect((await call(key.raw, endpoint.routeName)).statusCode).toBe(402);
    expect(await check()).toEqual(at(100));
    expect(await check()).toEqual([]);
    const mails = warningsTo();
    expect(mails).toHaveLength(3);
    expect(mails[0]!.raw).toContain('your quota is running low');
    expect(mails[1]!.raw).toContain('your quota is running low');
    expect(mails[2]!.raw).toContain('your quota is used up');
    expect(received.filter((m) => m.to.includes(admin.email) && /gateway calls/.test(m.raw))).toHaveLength(3);
    expect(mails[0]!.raw).toContain(`${t.config.appUrl}/account/billing`);

    const insight = (await get('/api/account/usage/insight', owner.token)).json().data;
    expect(insight.quota).toMatchObject({ calls: 5, quota: 5, percent: 100, reached: true });
  });

  it('warns on the quota the gateway enforces: a past-due paid plan counts against the free plan', async () => {
    const owner = await createActor(t.app, { name: 'Paula Pastdue' });
    // Still on the paid plan's id, but its subscription is unpaid: the gateway enforces the free plan.
    await t.db.update(accounts).set({ planId: 'five' }).where(eq(accounts.id, owner.accountId));
    const start = new Date();
    await t.db.insert(subscriptions).values({
      accountId: owner.accountId,
      planId: 'five',
      status: 'requires_payment_method',
      currencySymbol: '$',
      interval: 'month',
      currentPeriodStart: start,
      currentPeriodEnd: new Date(start.getTime() + 30 * 86_400_000),
    });
    await t.app.changes.publish({ kind: 'account', accountId: owner.accountId });
    expect(await entitlementsFor(t.db, t.app.plans, owner.accountId)).toMatchObject({
      planId: 'free',
      quotaCallsMonth: 1000,
    });
    const endpointId = randomUUID();
    const calls = (n: number) =>
      t.db.insert(usageEvents).values(
        // Calls of the quota reach an endpoint (a refusal is logged without one and is not counted).
        Array.from({ length: n }, () => ({
          callerAccountId: owner.accountId,
          endpointId,
          status: 200,
          latencyMs: 3,
        })),
      );
    const check = async () => (await checkLimitAlerts(t.app)).filter((s) => s.accountId === owner.accountId);

    // 5 calls are the paid plan's whole quota but 0.5 % of the enforced one: no mail.
    await calls(5);
    expect(await check()).toEqual([]);
    await calls(795);
    expect(await check()).toEqual([
      { accountId: owner.accountId, limit: 'plan_calls', level: 80, to: [owner.email] },
    ]);
    const mail = received.filter((m) => m.to.includes(owner.email) && /gateway calls/.test(m.raw));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.raw).toContain('has made 800 of the 1000 gateway calls');
    const insight = (await get('/api/account/usage/insight', owner.token)).json().data;
    expect(insight.quota).toMatchObject({ quota: 1000 });
  });

  it('respects the owner turning quota warnings off', async () => {
    const owner = await createActor(t.app);
    await t.db.update(accounts).set({ planId: 'five' }).where(eq(accounts.id, owner.accountId));
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/api/notification',
      headers: auth(owner.token),
      payload: { quota_warning: false },
    });
    expect(off.statusCode).toBe(200);
    await t.db.insert(usageEvents).values(
      Array.from({ length: 5 }, () => ({
        callerAccountId: owner.accountId,
        endpointId: randomUUID(),
        status: 200,
        latencyMs: 3,
      })),
    );
    const sent = await checkLimitAlerts(t.app);
    // Told by webhook only: the one admin (the owner) turned the mail off.
    expect(sent.filter((s) => s.accountId === owner.accountId)).toEqual([
      { accountId: owner.accountId, limit: 'plan_calls', level: 100, to: [] },
    ]);
    const claimed = await t.db
      .select()
      .from(quotaWarnings)
      .where(eq(quotaWarnings.accountId, owner.accountId));
    expect(claimed).toHaveLength(3);
  });
});
