import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMarketplaceEndpoint, TMarketplacePage } from '@air/shared/schemas/marketplace';
import { buildSnippets, PLACEHOLDER_KEY } from '@air/shared/snippets';
import { accounts, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor } from './support/actors';
import {
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  writeTestPlans,
  type TMockUpstream,
} from './gateway-fixtures';

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
let plansDir: string;

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-mkt-plans-'));
  upstream = await startMockUpstream();
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  rmSync(plansDir, { recursive: true, force: true });
});

const DAY_MS = 86_400_000;
const listed = { isShared: true, isPrivate: false };

async function catalog(query = ''): Promise<TMarketplacePage> {
  const response = await t.app.inject({ method: 'GET', url: `/api/marketplace${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as TMarketplacePage;
}

function call(key: string, routeName: string) {
  return fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

/** Metered rows written straight into usage_events (as the metering writer does): the trigger rolls them up. */
async function metered(
  endpoint: { id: string; accountId: string },
  callerAccountId: string,
  rows: { status: number; latencyMs: number; daysAgo: number }[],
) {
  await t.db.insert(usageEvents).values(
    rows.map((row) => ({
      callerAccountId,
      endpointId: endpoint.id,
      providerAccountId: endpoint.accountId,
      status: row.status,
      latencyMs: row.latencyMs,
      createdAt: new Date(Date.now() - row.daysAgo * DAY_MS),
    })),
  );
}

describe('public marketplace catalog', () => {
  let alpha: { id: string };
  let beta: { id: string };
  let caller: { id: string };

  beforeAll(async () => {
    alpha = await insertAccount(t.db, 'Alpha AI');
    beta = await insertAccount(t.db, 'Beta Models');
    caller = await insertAccount(t.db, 'Caller Co');
  });

  it('lists only active, shared, public endpoints of open accounts, without signing in', async () => {
    const secret = t.config.secret;
    const url = `${upstream.url}/ok`;
    await insertEndpoint(t.db, secret, alpha.id, { routeName: 'alpha/chat', routeEndpoint: url, ...listed });
    await insertEndpoint(t.db, secret, alpha.id, {
      routeName: 'alpha/private',
      routeEndpoint: url,
      isShared: true,
    });
    await insertEndpoint(t.db, secret, alpha.id, {
      routeName: 'alpha/own',
      routeEndpoint: url,
      isPrivate: false,
    });
    await insertEndpoint(t.db, secret, beta.id, {
      routeName: 'beta/off',
      routeEndpoint: url,
      ...listed,
      isActive: false,
    });
    const closed = await insertAccount(t.db, 'Closed Ltd');
    await insertEndpoint(t.db, secret, closed.id, {
      routeName: 'closed/gone',
      routeEndpoint: url,
      ...listed,
    });
    await t.db.update(accounts).set({ closedAt: new Date() }).where(eq(accounts.id, closed.id));

    const page = await catalog('?provider=alpha');
    expect(page.items.map((item) => item.route_name)).toEqual(['alpha/chat']);
    const all = await catalog('?sort=newest');
    const names = all.items.map((item) => item.route_name);
    expect(names).toContain('alpha/chat');
    for (const hidden of ['alpha/private', 'alpha/own', 'beta/off', 'closed/gone'])
      expect(names).not.toContain(hidden);
    for (const hidden of ['alpha/private', 'alpha/own', 'beta/off', 'closed/gone']) {
      const [provider, name] = hidden.split('/');
      const response = await t.app.inject({ method: 'GET', url: `/api/marketplace/${provider}/${name}` });
      expect(response.statusCode).toBe(404);
    }
  });

  it('counts metered calls, failures and latency of the last 7 days from the roll-up', async () => {
    const secret = t.config.secret;
    await insertEndpoint(t.db, secret, beta.id, {
      routeName: 'beta/fast',
      routeEndpoint: `${upstream.url}/ok`,
      ...listed,
    });
    const failing = await insertEndpoint(t.db, secret, beta.id, {
      routeName: 'beta/flaky',
      routeEndpoint: `${upstream.url}/error`,
      ...listed,
    });
    const key = await insertKey(t.db, secret, caller.id);
    for (let i = 0; i < 3; i++) expect((await call(key.raw, 'beta/fast')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await call(key.raw, 'beta/flaky')).status).toBe(429);
    // The provider's own test calls are not what callers choose by: they do not count.
    const own = await insertKey(t.db, secret, beta.id);
    for (let i = 0; i < 4; i++) expect((await call(own.raw, 'beta/fast')).status).toBe(200);
    expect((await call(own.raw, 'beta/flaky')).status).toBe(429);
    await gatewayStateOf(t.app).meter.flush();
    // beta/flaky also succeeded slowly three times this week (so its median is slow, whatever the
    // machine's speed for the two real calls), and more 10 days ago (outside the 7 days).
    await metered(failing, caller.id, [
      { status: 200, latencyMs: 700, daysAgo: 3 },
      { status: 200, latencyMs: 700, daysAgo: 2 },
      { status: 200, latencyMs: 700, daysAgo: 1 },
      { status: 200, latencyMs: 700, daysAgo: 10 },
      { status: 500, latencyMs: 700, daysAgo: 10 },
    ]);

    const page = await catalog('?provider=beta&sort=popular');
    expect(page.items.map((item) => item.route_name)).toEqual(['beta/flaky', 'beta/fast']);
    const [flaky, fast] = page.items;
    expect(flaky!.stats).toMatchObject({ calls_7d: 5, success_rate_7d: 0.6 });
    expect(fast!.stats).toMatchObject({ calls_7d: 3, success_rate_7d: 1 });
    expect(fast!.stats.p50_ms_7d).not.toBeNull();
    expect(fast!.provider).toEqual({ name: 'Beta Models', slug: 'beta' });

    const reliable = await catalog('?provider=beta&sort=reliable');
    expect(reliable.items.map((item) => item.route_name)).toEqual(['beta/fast', 'beta/flaky']);
    const fastest = await catalog('?provider=beta&sort=fastest');
    expect(fastest.items.map((item) => item.route_name)[0]).toBe('beta/fast');

    // The endpoint page: 30 days, oldest first, with the day 10 days ago.
    const response = await t.app.inject({ method: 'GET', url: '/api/marketplace/beta/flaky' });
    expect(response.statusCode).toBe(200);
    const detail = response.json().data as TMarketplaceEndpoint;
    expect(detail.daily).toHaveLength(30);
    expect(detail.daily.reduce((sum, day) => sum + day.calls, 0)).toBe(7);
    const tenDaysAgo = new Date(Date.now() - 10 * DAY_MS).toISOString().slice(0, 10);
    expect(detail.daily.find((day) => day.day === tenDaysAgo)).toEqual({
      day: tenDaysAgo,
      calls: 2,
      success_rate: 0.5,
    });
    expect(detail.daily[0]!.day < detail.daily[29]!.day).toBe(true);
    // The dashboard's quick-start, word for word (one style, issue 38): the route in its header.
    expect(detail.snippets).toEqual(
      buildSnippets({ origin: t.config.appUrl, apiKey: PLACEHOLDER_KEY, routeName: 'beta/flaky' }),
    );
    expect(detail.snippets.curl).toContain(`'${t.config.appUrl}/api/v1'`);
    expect(detail.snippets.curl).toContain(`'x-route-name: beta/flaky'`);
    expect(detail.snippets.curl).toContain(`'x-api-key: ${PLACEHOLDER_KEY}'`);
    for (const kind of ['node', 'python', 'openai'] as const)
      expect(detail.snippets[kind]).toContain('"beta/flaky"');
    // No calls yet: null rates, not zero.
    const quiet = await insertEndpoint(t.db, secret, beta.id, {
      routeName: 'beta/quiet',
      routeEndpoint: `${upstream.url}/ok`,
      ...listed,
    });
    expect(quiet).toBeTruthy();
    const empty = (await catalog('?q=beta/quiet')).items[0]!;
    expect(empty.stats).toMatchObject({
      calls_7d: 0,
      success_rate_7d: null,
      uptime_7d: null,
      p50_ms_7d: null,
      p95_ms_7d: null,
      ttft_ms_7d: null,
      tokens_per_s_7d: null,
      calls_30d: 0,
    });
    expect((await catalog('?provider=beta&sort=fastest')).items.at(-1)!.route_name).toBe('beta/quiet');
  });

  it('searches name, provider and description, filters by type, and pages by cursor', async () => {
    const owner = await createActor(t.app, { accountName: 'Gamma Search' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/aiendpoint',
      headers: bearer(owner.token),
      payload: {
        route_name: 'gamma/finder',
        route_endpoint: `${upstream.url}/ok`,
        name: 'Finder',
        route_type: 'datasource',
        ...listed,
        description: '<p>Finds <b>tide</b> tables &amp; more</p>',
      },
    });
    expect(created.statusCode).toBe(201);
    expect((await catalog('?q=TIDE')).items.map((i) => i.route_name)).toEqual(['gamma/finder']);
    expect((await catalog('?q=gamma%20search')).items.map((i) => i.route_name)).toEqual(['gamma/finder']);
    expect((await catalog('?q=100%25')).items).toEqual([]);
    const finder = (await catalog('?type=datasource')).items;
    expect(finder.map((i) => i.route_name)).toEqual(['gamma/finder']);
    expect(finder[0]!.description).toBe('Finds tide tables & more');
    expect(finder[0]!.price).toBeNull();

    for (let i = 0; i < 30; i++) {
      await insertEndpoint(t.db, t.config.secret, beta.id, {
        routeName: `many/e-${String(i).padStart(2, '0')}`,
        routeEndpoint: `${upstream.url}/ok`,
        ...listed,
      });
    }
    const first = await catalog('?provider=many&sort=newest');
    expect(first.items).toHaveLength(24);
    expect(first.next_cursor).toBeTruthy();
    const second = await catalog(`?provider=many&sort=newest&cursor=${first.next_cursor}`);
    expect(second.items).toHaveLength(6);
    expect(second.next_cursor).toBeNull();
    const seen = [...first.items, ...second.items].map((i) => i.route_name);
    expect(new Set(seen).size).toBe(30);

    const bad = await t.app.inject({ method: 'GET', url: '/api/marketplace?sort=cheapest' });
    expect(bad.statusCode).toBe(400);
    const wrongCursor = await t.app.inject({
      method: 'GET',
      url: `/api/marketplace?provider=many&sort=popular&cursor=${first.next_cursor}`,
    });
    expect(wrongCursor.statusCode).toBe(400);
  });

  it('shows the price an owner sets, and takes all zeros as free', async () => {
    const owner = await createActor(t.app, { accountName: 'Priced Inc' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/aiendpoint',
      headers: bearer(owner.token),
      payload: { route_name: 'priced/llm', route_endpoint: `${upstream.url}/ok`, ...listed },
    });
    const id = created.json().data.id as string;
    const price = { per_call: 5, per_1m_input_tokens: 150, per_1m_output_tokens: 600 };
    const patch = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/aiendpoint/${id}`,
        headers: bearer(owner.token),
        payload: body,
      });
    const saved = await patch({ config: { price } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.config.price).toEqual(price);
    const item = (await catalog('?provider=priced')).items[0]!;
    expect(item.price).toEqual(price);
    expect(item.currency).toBe('usd');

    for (const wrong of [{ ...price, per_call: -1 }, { ...price, per_call: 1.5 }, { per_call: 1 }]) {
      const refused = await patch({ config: { price: wrong } });
      expect(refused.statusCode).toBe(400);
    }
    expect((await catalog('?provider=priced')).items[0]!.price).toEqual(price);

    await patch({ config: { price: { per_call: 0, per_1m_input_tokens: 0, per_1m_output_tokens: 0 } } });
    expect((await catalog('?provider=priced')).items[0]!.price).toBeNull();
  });
});
