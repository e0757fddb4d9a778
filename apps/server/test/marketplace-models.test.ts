import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMarketplaceEndpoint, TMarketplacePage } from '@air/shared/schemas/marketplace';
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
    // Up minutes over observed minutes of both: (4 + 1) / (4 + 2).
    expect(model.stats.uptime_7d).toBe(0.8333);
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
