import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  TMarketplaceEndpoint,
  TMarketplaceModelsPage,
  TMarketplacePage,
} from '@air/shared/schemas/marketplace';
import { aiEndpoints, usageEvents } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { insertAccount, insertEndpoint } from './gateway-fixtures';

/** Issue 44 item 3, per model: the catalog's model id and filter, one model's combined figures (decision 062). */

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const MODEL = 'mdl-lab/llama-3-x';
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const listed = { isShared: true, isPrivate: false };

async function get(url: string) {
  return t.app.inject({ method: 'GET', url });
}
async function catalog(query: string): Promise<TMarketplacePage> {
  const response = await get(`/api/marketplace${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as TMarketplacePage;
}
const names = (page: TMarketplacePage) => page.items.map((item) => item.route_name).sort();

describe('one model across providers in the catalog', () => {
  let caller: { id: string };
  const ids: Record<string, { id: string; accountId: string }> = {};

  /** One metering batch (the trigger rolls it up): [minute, status, latency] from `start`. */
  async function calls(route: string, start: number, rows: Array<[number, number, number]>) {
    const endpoint = ids[route]!;
    await t.db.insert(usageEvents).values(
      rows.map(([minute, status, latencyMs], i) => ({
        callerAccountId: caller.id,
        endpointId: endpoint.id,
        providerAccountId: endpoint.accountId,
        status,
        latencyMs,
        createdAt: new Date(start + minute * MINUTE_MS + i * 100),
      })),
    );
  }

  beforeAll(async () => {
    caller = await insertAccount(t.db, 'Model Caller');
    const alpha = await insertAccount(t.db, 'Alpha Models');
    const beta = await insertAccount(t.db, 'Beta Models');
    const make = async (account: { id: string }, routeName: string, more: object, modelId: string | null) => {
      const row = await insertEndpoint(t.db, t.config.secret, account.id, {
        routeName,
        routeEndpoint: 'http://127.0.0.1:9/v1',
        ...more,
      });
      await t.db.update(aiEndpoints).set({ modelId }).where(eq(aiEndpoints.id, row.id));
      ids[routeName] = row;
    };
    await make(alpha, 'mdla/llama', listed, MODEL);
    await make(beta, 'mdlb/llama', listed, MODEL);
    // Serving the model too, but not listed: never counted.
    await make(beta, 'mdlb/private', { isShared: true, isPrivate: true }, MODEL);
    await make(alpha, 'mdla/other', listed, null);

    const day = Math.floor((Date.now() - 2 * DAY_MS) / MINUTE_MS) * MINUTE_MS;
    // mdla/llama: four up minutes at 150 ms, and a caller's mistake (neutral for uptime).
    await calls('mdla/llama', day, [
      [0, 200, 150],
      [0, 400, 150],
      [1, 200, 150],
      [2, 200, 150],
      [3, 200, 150],
    ]);
    // mdlb/llama: a down minute (three failures in a row), then an up one, at 1500 ms.
    await calls('mdlb/llama', day, [
      [0, 503, 1500],
      [0, 503, 1500],
      [0, 503, 1500],
      [1, 200, 1500],
    ]);
    await calls('mdlb/private', day, [
      [0, 200, 10],
      [1, 200, 10],
    ]);
  });

  it('lists each endpoint’s model id and filters by a model id in its normalized form', async () => {
    const all = await catalog('?q=mdl');
    const byName = new Map(all.items.map((item) => [item.route_name, item]));
    expect(byName.get('mdla/llama')!.model_id).toBe(MODEL);
    expect(byName.get('mdla/other')!.model_id).toBeNull();
    expect(byName.has('mdlb/private')).toBe(false);

    expect(names(await catalog(`?model=${MODEL}`))).toEqual(['mdla/llama', 'mdlb/llama']);
    // Any case and spacing the caller types finds the normalized id.
    expect(names(await catalog(`?model=${encodeURIComponent('  MDL-Lab/Llama 3 X ')}`))).toEqual([
      'mdla/llama',
      'mdlb/llama',
    ]);
    // With the other filters: one provider's endpoints of the model.
    expect(names(await catalog(`?model=${MODEL}&provider=mdlb`))).toEqual(['mdlb/llama']);
    expect(names(await catalog('?model=nobody/serves-this'))).toEqual([]);
    // A blank model is no filter.
    expect(names(await catalog('?q=mdl&model='))).toEqual(['mdla/llama', 'mdla/other', 'mdlb/llama']);
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/marketplace?model=${encodeURIComponent('bad\u0007id')}`,
      headers: { 'accept-language': 'es' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().inputError).toBe('model');
    expect(refused.json().message).toContain('modelo');
  });

  it('an endpoint’s page carries its model across the listed providers, figures combined exactly', async () => {
    const page = (await get('/api/marketplace/mdlb/llama')).json().data as TMarketplaceEndpoint;
    const alpha = (await get('/api/marketplace/mdla/llama')).json().data as TMarketplaceEndpoint;
    expect(page.model_id).toBe(MODEL);
    const model = page.model!;
    expect(model.model_id).toBe(MODEL);
    // The private endpoint's calls (10 ms, all up) are left out.
    expect(model.providers).toBe(2);
    // Most called first: 5 calls, then 4.
    expect(model.route_names).toEqual(['mdla/llama', 'mdlb/llama']);
    expect(model.stats.calls_7d).toBe(9);
    expect(model.stats.calls_30d).toBe(9);
    // 2xx over all calls: 4 + 1 of 9.
    expect(model.stats.success_rate_7d).toBe(0.5556);
    // Some provider up in each observed minute (mdlb's down minute 0 is mdla's up one): 4 of 4,
    // where the endpoint-minutes added up would say (4 + 1) / (4 + 2).
    expect(model.stats.uptime_7d).toBe(1);
    expect(alpha.stats.uptime_7d).toBe(1);
    expect(page.stats.uptime_7d).toBe(0.5);
    // The histograms added up: the median between the two, the 95th in the slow one's bucket.
    expect(model.stats.p50_ms_7d!).toBeGreaterThan(alpha.stats.p50_ms_7d!);
    expect(model.stats.p50_ms_7d!).toBeLessThan(page.stats.p50_ms_7d!);
    expect(model.stats.p95_ms_7d!).toBeGreaterThanOrEqual(1000);
    expect(model.stats.p95_ms_7d!).toBeLessThanOrEqual(2000);
    // Both pages of the model show the same combined figures.
    expect(alpha.model).toEqual(model);

    const other = (await get('/api/marketplace/mdla/other')).json().data as TMarketplaceEndpoint;
    expect(other.model).toBeNull();
  });
});

describe('the catalog’s models, sorted and filtered by their figures (GET /api/marketplace-models)', () => {
  const FAST = 'mv-lab/fast';
  const SLOW = 'mv-lab/slow';
  const PRICEY = 'mv-lab/pricey';
  const ids: Record<string, { id: string; accountId: string }> = {};
  let caller: { id: string };

  async function models(query: string): Promise<TMarketplaceModelsPage> {
    const response = await get(`/api/marketplace-models${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as TMarketplaceModelsPage;
  }
  const order = (page: TMarketplaceModelsPage) => page.items.map((item) => item.model_id);

  /** One metering batch: [minute, status, latency] from `start`. */
  async function calls(route: string, start: number, rows: Array<[number, number, number]>) {
    const endpoint = ids[route]!;
    await t.db.insert(usageEvents).values(
      rows.map(([minute, status, latencyMs], i) => ({
        callerAccountId: caller.id,
        endpointId: endpoint.id,
        providerAccountId: endpoint.accountId,
        status,
        latencyMs,
        createdAt: new Date(start + minute * MINUTE_MS + i * 100),
      })),
    );
  }

  beforeAll(async () => {
    caller = await insertAccount(t.db, 'Model View Caller');
    const one = await insertAccount(t.db, 'Model View One');
    const two = await insertAccount(t.db, 'Model View Two');
    const make = async (
      account: { id: string },
      routeName: string,
      modelId: string,
      price: { input: number; output: number } | null,
      more: object = listed,
    ) => {
      const row = await insertEndpoint(t.db, t.config.secret, account.id, {
        routeName,
        routeEndpoint: 'http://127.0.0.1:9/v1',
        ...more,
      });
      await t.db
        .update(aiEndpoints)
        .set({
          modelId,
          pricePer1mInput: price?.input ?? null,
          pricePer1mOutput: price?.output ?? null,
          pricePerCall: price ? 0 : null,
        })
        .where(eq(aiEndpoints.id, row.id));
      ids[routeName] = row;
    };
    // fast: two providers at 1.00 and 3.00 per million; slow: one free; pricey: one at 9.00, no calls.
    await make(one, 'mvone/fast', FAST, { input: 1e6, output: 1e6 });
    await make(two, 'mvtwo/fast', FAST, { input: 3e6, output: 3e6 });
    await make(one, 'mvone/slow', SLOW, null);
    await make(two, 'mvtwo/pricey', PRICEY, { input: 9e6, output: 9e6 });
    // Declaring a model but not listed: neither counted nor a model of the catalog.
    await make(two, 'mvtwo/pricey-private', PRICEY, null, { isShared: true, isPrivate: true });
    await make(two, 'mvtwo/hidden', 'mv-lab/hidden', null, { isShared: true, isPrivate: true });

    const start = Math.floor((Date.now() - 2 * DAY_MS) / MINUTE_MS) * MINUTE_MS;
    // fast: mvone up in minute 0 and down in minute 1, mvtwo up in minute 1 and down in minute 2,
    // all at 100 ms. Some provider up in minutes 0 and 1 of 0, 1, 2: 2/3 (added up: 2 of 4).
    await calls('mvone/fast', start, [
      [0, 200, 100],
      [1, 503, 100],
      [1, 503, 100],
      [1, 503, 100],
    ]);
    await calls('mvtwo/fast', start, [
      [1, 200, 100],
      [2, 503, 100],
      [2, 503, 100],
      [2, 503, 100],
    ]);
    // slow: up both minutes, at 2 s.
    await calls('mvone/slow', start, [
      [0, 200, 2000],
      [1, 200, 2000],
    ]);
    await calls('mvtwo/pricey-private', start, [[0, 200, 10]]);
  });

  it('lists each listed model once with its providers, cheapest price and combined figures', async () => {
    const page = await models('?q=MV-LAB');
    expect(order(page).sort()).toEqual([FAST, PRICEY, SLOW]);
    const fast = page.items.find((item) => item.model_id === FAST)!;
    expect(fast).toMatchObject({
      providers: 2,
      // Most called first, then by name: 4 calls each.
      route_names: ['mvone/fast', 'mvtwo/fast'],
      price: { per_call: 0, per_1m_input_tokens: 1e6, per_1m_output_tokens: 1e6 },
      currency: 'usd',
    });
    expect(fast.stats.calls_7d).toBe(8);
    expect(fast.stats.success_rate_7d).toBe(0.25);
    expect(fast.stats.uptime_7d).toBe(0.6667);
    expect(fast.stats.uptime_30d).toBe(0.6667);
    // Each endpoint alone: half its minutes up.
    const alone = (await get('/api/marketplace/mvone/fast')).json().data as TMarketplaceEndpoint;
    expect(alone.stats.uptime_7d).toBe(0.5);
    // The endpoint page's model is the same model.
    expect(alone.model).toEqual({
      model_id: FAST,
      providers: 2,
      route_names: fast.route_names,
      stats: fast.stats,
    });
    const pricey = page.items.find((item) => item.model_id === PRICEY)!;
    // The private provider neither counts nor lends its calls.
    expect(pricey).toMatchObject({ providers: 1, route_names: ['mvtwo/pricey'] });
    expect(pricey.stats.calls_7d).toBe(0);
    expect(pricey.stats.uptime_7d).toBeNull();
    expect(page.items.find((item) => item.model_id === SLOW)!.price).toBeNull();
    expect(order(await models('?q=mv-lab/hid'))).toEqual([]);
  });

  it('sorts by price, uptime, latency and calls, a missing figure last; filters by the figures', async () => {
    expect(order(await models('?q=mv-lab&sort=price'))).toEqual([SLOW, FAST, PRICEY]);
    expect(order(await models('?q=mv-lab&sort=uptime'))).toEqual([SLOW, FAST, PRICEY]);
    expect(order(await models('?q=mv-lab&sort=fastest'))).toEqual([FAST, SLOW, PRICEY]);
    expect(order(await models('?q=mv-lab&sort=reliable&window=30d'))).toEqual([SLOW, FAST, PRICEY]);
    expect(order(await models('?q=mv-lab'))).toEqual([FAST, SLOW, PRICEY]);
    expect(order(await models('?q=mv-lab&min_uptime=0.9'))).toEqual([SLOW]);
    expect(order(await models('?q=mv-lab&max_p95_ms=1000'))).toEqual([FAST]);
    // 2.00 per million at most: the cheapest provider of fast passes, and free slow.
    expect(order(await models('?q=mv-lab&sort=price&max_price_1m=2000000'))).toEqual([SLOW, FAST]);
  });

  it('pages with a cursor of its own sort; a cursor of another sort or of the endpoints is refused', async () => {
    const first = await models('?q=mv-lab&sort=price&limit=2');
    expect(order(first)).toEqual([SLOW, FAST]);
    expect(first.next_cursor).not.toBeNull();
    const next = await models(`?q=mv-lab&sort=price&limit=2&cursor=${first.next_cursor}`);
    expect(order(next)).toEqual([PRICEY]);
    expect(next.next_cursor).toBeNull();
    const other = await get(`/api/marketplace-models?q=mv-lab&sort=uptime&cursor=${first.next_cursor}`);
    expect(other.statusCode).toBe(400);
    expect(other.json().inputError).toBe('cursor');
    const endpoints = await catalog('?q=mv&sort=price&limit=1');
    const mixed = await get(`/api/marketplace-models?sort=price&cursor=${endpoints.next_cursor}`);
    expect(mixed.statusCode).toBe(400);
    // A field of the endpoints' catalog is no field here.
    expect((await get('/api/marketplace-models?provider=mvone')).statusCode).toBe(400);
  });
});
