import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAccountOverview } from '@air/shared/schemas/overview';
import { aiEndpoints, usageEvents } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor } from './support/actors';
import { insertEndpoint, insertKey, startMockUpstream, type TMockUpstream } from './gateway-fixtures';
import { freePlansFile, injectChat } from './usage-fixtures';
import { refusedUrl } from './routing-fixtures';

let t: TTestApp;
let upstream: TMockUpstream;

beforeAll(async () => {
  upstream = await startMockUpstream();
  t = await createTestApp({ upstreamAllowPrivate: true, plansFile: freePlansFile([['free', 'Free', 1000]]) });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

const DAY_MS = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

const askOverview = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/account/overview', headers: bearer(token) });

async function overview(token: string): Promise<TAccountOverview> {
  const response = await askOverview(token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: TAccountOverview }>().data;
}

const gatewayCall = (rawKey: string, model: string) => injectChat(t.app, rawKey, model);

interface TSeed {
  daysAgo: number;
  status: number;
  endpoint: 'ok' | 'error';
}

/** Seeded calls (every one 150 ms, so the median is exactly 150 within its 100-200 ms bucket). */
/** Each seeded call's latency: all different, none on a bucket bound of the roll-up. */
const latencyOf = (index: number) => 113 + 37 * index;

const SEEDS: TSeed[] = [
  { daysAgo: 0, status: 200, endpoint: 'ok' },
  { daysAgo: 0, status: 200, endpoint: 'ok' },
  { daysAgo: 0, status: 502, endpoint: 'error' },
  { daysAgo: 0, status: 429, endpoint: 'ok' },
  { daysAgo: 1, status: 200, endpoint: 'ok' },
  { daysAgo: 1, status: 200, endpoint: 'error' },
  { daysAgo: 3, status: 200, endpoint: 'ok' },
  { daysAgo: 12, status: 500, endpoint: 'error' },
  { daysAgo: 29, status: 200, endpoint: 'ok' },
  // Before the trend's 30 days (and before this month): in neither.
  { daysAgo: 45, status: 200, endpoint: 'ok' },
];

describe('GET /api/account/overview', () => {
  it('reports the seeded roll-up: today, this period, trend, error rate, p50, top routes, checklist', async () => {
    const owner = await createActor(t.app, { accountName: 'Overview Org' });
    const suffix = owner.accountId.slice(0, 8);
    const fresh = await overview(owner.token);
    expect(fresh.started).toEqual({ key: false, endpoint: false, call: false });
    expect(fresh.calls_today).toBe(0);
    expect(fresh.error_rate).toBeNull();
    expect(fresh.latency_p50_ms).toBeNull();
    expect(fresh.trend).toHaveLength(30);
    expect(fresh.top_routes).toEqual([]);

    const ok = await insertEndpoint(t.db, t.config.secret, owner.accountId, {
      routeName: `ov-${suffix}/ok`,
      routeEndpoint: `${upstream.url}/ok`,
    });
    const error = await insertEndpoint(t.db, t.config.secret, owner.accountId, {
      routeName: `ov-${suffix}/error`,
      routeEndpoint: `${upstream.url}/error`,
    });
    const key = await insertKey(t.db, t.config.secret, owner.accountId);
    // Another account's calls on the same days never count here.
    const stranger = await createActor(t.app);
    const strangerKey = await insertKey(t.db, t.config.secret, stranger.accountId);
    const ids = { ok: ok.id, error: error.id };
    const noon = (n: number) => new Date(`${dayAgo(n)}T00:00:00Z`).getTime() + 1000;
    await t.db.insert(usageEvents).values([
      ...SEEDS.map((seed, index) => ({
        callerAccountId: owner.accountId,
        keyId: key.id,
        endpointId: ids[seed.endpoint],
        providerAccountId: owner.accountId,
        status: seed.status,
        latencyMs: latencyOf(index),
        createdAt: new Date(noon(seed.daysAgo)),
      })),
      {
        callerAccountId: stranger.accountId,
        keyId: strangerKey.id,
        endpointId: ok.id,
        providerAccountId: owner.accountId,
        status: 500,
        latencyMs: 9000,
        createdAt: new Date(noon(0)),
      },
    ]);

    const seen = await overview(owner.token);
    const today = dayAgo(0);
    const periodFrom = `${today.slice(0, 7)}-01`;
    const inPeriod = SEEDS.filter((seed) => dayAgo(seed.daysAgo) >= periodFrom);
    const errors = (list: TSeed[]) => list.filter((seed) => seed.status >= 400).length;
    expect(seen.today).toBe(today);
    expect(seen.period).toEqual({ period: today.slice(0, 7), from: periodFrom });
    expect(seen.calls_today).toBe(4);
    expect(seen.calls_period).toBe(inPeriod.length);
    expect(seen.errors_period).toBe(errors(inPeriod));
    expect(seen.error_rate).toBeCloseTo(errors(inPeriod) / inPeriod.length, 10);
    // The median of the period's calls as measured (percentile_disc: a real call's latency), the
    // same figure as the usage page's; not a bound of the roll-up's latency buckets.
    const latencies = SEEDS.map((seed, index) => ({ seed, ms: latencyOf(index) }))
      .filter(({ seed }) => dayAgo(seed.daysAgo) >= periodFrom)
      .map(({ ms }) => ms)
      .sort((a, b) => a - b);
    expect(seen.latency_p50_ms).toBe(latencies[Math.ceil(latencies.length / 2) - 1]);

    // The trend: 30 days, today last, each day's calls and errors; the 45-day-old call is outside.
    expect(seen.trend).toHaveLength(30);
    expect(seen.trend[0]!.day).toBe(dayAgo(29));
    expect(seen.trend[29]).toEqual({ day: today, calls: 4, errors: 2 });
    for (const day of seen.trend) {
      const seeds = SEEDS.filter((seed) => dayAgo(seed.daysAgo) === day.day);
      expect(day, day.day).toEqual({ day: day.day, calls: seeds.length, errors: errors(seeds) });
    }

    // Top routes this period, most calls first, with their errors.
    const expectedRoutes = (['ok', 'error'] as const)
      .map((name) => {
        const seeds = inPeriod.filter((seed) => seed.endpoint === name);
        return {
          endpoint_id: ids[name],
          route_name: `ov-${suffix}/${name}`,
          calls: seeds.length,
          errors: errors(seeds),
        };
      })
      .filter((route) => route.calls > 0)
      .sort((a, b) => b.calls - a.calls);
    expect(seen.top_routes).toEqual(expectedRoutes);

    expect(seen.started).toEqual({ key: true, endpoint: true, call: true });
    expect(seen.endpoint_count).toBe(2);
    expect(seen.endpoints.map((endpoint) => endpoint.route_name).sort()).toEqual(
      [`ov-${suffix}/error`, `ov-${suffix}/ok`].sort(),
    );
    expect(seen.endpoints.every((endpoint) => endpoint.state === 'closed' && endpoint.active)).toBe(true);
    expect(seen.quota).toMatchObject({ quota: 1000, reached: false });

    // The latest calls: the request log's newest, at most five, newest first.
    expect(seen.latest_calls).toHaveLength(5);
    const times = seen.latest_calls.map((entry) => entry.time);
    expect([...times].sort().reverse()).toEqual(times);
    expect(seen.latest_calls.every((entry) => entry.key_id === key.id)).toBe(true);

    // A call made through the gateway a moment ago counts at once (the meter is flushed first).
    const live = await gatewayCall(key.raw, ok.routeName);
    expect(live.statusCode).toBe(200);
    const after = await overview(owner.token);
    expect(after.calls_today).toBe(5);
    expect(after.trend[29]!.calls).toBe(5);
    expect(after.quota.calls).toBeGreaterThanOrEqual(1);
    expect(after.latest_calls[0]).toMatchObject({ route_name: ok.routeName, status: 200 });
  });

  it('puts an endpoint whose circuit is open first, with its open upstream', async () => {
    const owner = await createActor(t.app);
    const suffix = owner.accountId.slice(0, 8);
    const key = await insertKey(t.db, t.config.secret, owner.accountId);
    await insertEndpoint(t.db, t.config.secret, owner.accountId, {
      routeName: `a-${suffix}/healthy`,
      routeEndpoint: `${upstream.url}/ok`,
    });
    const gone = await refusedUrl();
    const dead = await insertEndpoint(t.db, t.config.secret, owner.accountId, {
      routeName: `z-${suffix}/dead`,
      routeEndpoint: gone,
    });
    await t.db
      .update(aiEndpoints)
      .set({
        routing: {
          upstreams: [{ url: gone, weight: 1 }],
          retry: { attempts: 1, backoff_ms: 0 },
          circuit: { failures: 1, cooldown_s: 60 },
        },
      })
      .where(eq(aiEndpoints.id, dead.id));
    expect((await gatewayCall(key.raw, dead.routeName)).statusCode).toBe(502);
    const seen = await overview(owner.token);
    expect(seen.endpoints[0]).toMatchObject({
      id: dead.id,
      route_name: dead.routeName,
      state: 'open',
      upstreams: 1,
      open_upstreams: 1,
    });
    expect(seen.endpoints[1]).toMatchObject({ route_name: `a-${suffix}/healthy`, state: 'closed' });
    // A failed call is not a succeeded one: the checklist's last step stays open.
    expect(seen.started).toEqual({ key: true, endpoint: true, call: false });
  });

  it('answers a user-role member (no key permission needed) and refuses a key without a usage scope', async () => {
    const owner = await createActor(t.app);
    const member = await createActor(t.app, { accountId: owner.accountId, role: 'user' });
    const keysList = await t.app.inject({ method: 'GET', url: '/api/key', headers: bearer(member.token) });
    expect(keysList.statusCode).toBe(403);
    const seen = await overview(member.token);
    expect(seen.started.key).toBe(false);

    const gatewayOnly = await insertKey(t.db, t.config.secret, owner.accountId, ['gateway.invoke']);
    const refused = await askOverview(gatewayOnly.raw);
    expect(refused.statusCode).toBe(403);
    const reader = await insertKey(t.db, t.config.secret, owner.accountId, ['usage.read']);
    const read = await askOverview(reader.raw);
    expect(read.statusCode).toBe(200);
    expect(read.json<{ data: TAccountOverview }>().data.started.key).toBe(true);
  });

  it('needs a signed-in caller', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/account/overview' });
    expect(response.statusCode).toBe(401);
  });
});
