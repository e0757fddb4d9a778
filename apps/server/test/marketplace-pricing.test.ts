import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageEvents } from '../src/db/schema';
import { UsageJournal } from '../src/modules/usage/journal';
import { chargedPicos } from '../src/modules/money/service';
import { gatewayStateOf } from '../src/gateway/state';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import type { TTestApp } from './helpers';
import { insertKey, type TMockUpstream } from './gateway-fixtures';
import { chatOverHttp, sharePricedRoute, startListeningApp, stopListeningApp } from './marketplace-helpers';

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;

beforeAll(async () => {
  ({ t, upstream, base } = await startListeningApp());
});

afterAll(() => stopListeningApp({ t, upstream }));

/** Prices in micros (0.03 per call, 1.50 and 6.00 per million tokens). */
const PRICE = { per_call: 30_000, per_1m_input_tokens: 1_500_000, per_1m_output_tokens: 6_000_000 };
/** The mock answers 11 prompt and 7 completion tokens: 30,000 x 1e6 + 11 x 1.5e6 + 7 x 6e6 picos. */
const CALL_PICOS = 30_000 * 1_000_000 + 11 * 1_500_000 + 7 * 6_000_000;

const call = (key: string, routeName: string, content = 'hi') => chatOverHttp(base, key, routeName, content);

function priced(owner: { headers: Record<string, string> }, routeName: string, upstreamPath = '/ok') {
  return sharePricedRoute(t.app, owner, routeName, `${upstream.url}${upstreamPath}`, PRICE);
}

async function rowsOf(endpointId: string) {
  await gatewayStateOf(t.app).meter.flush();
  return t.db
    .select()
    .from(usageEvents)
    .where(eq(usageEvents.endpointId, endpointId))
    .orderBy(asc(usageEvents.id));
}

describe('marketplace prices at metering', () => {
  it('a caller without a card gets 402 payment_required from a priced route, and may call it with one', async () => {
    const provider = await newOwner(t.app, 'free');
    const caller = await newOwner(t.app, 'free');
    await priced(provider, 'pricey/no-card');
    const key = await insertKey(t.db, t.config.secret, caller.accountId);
    const refused = await call(key.raw, 'pricey/no-card');
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatchObject({ code: 'payment_required' });

    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    const saved = await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call(key.raw, 'pricey/no-card')).status).toBe(200);
  });

  it('costs per call plus tokens, exactly; the provider own calls, failures and cache hits cost nothing', async () => {
    const provider = await newOwner(t.app, 'free');
    const caller = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    const id = await priced(provider, 'pricey/chat');
    const failing = await priced(provider, 'pricey/failing', '/error');
    const callerKey = await insertKey(t.db, t.config.secret, caller.accountId);
    const ownKey = await insertKey(t.db, t.config.secret, provider.accountId);

    for (let i = 0; i < 3; i++) expect((await call(callerKey.raw, 'pricey/chat')).status).toBe(200);
    expect((await call(ownKey.raw, 'pricey/chat')).status).toBe(200);
    expect((await call(callerKey.raw, 'pricey/failing')).status).toBe(429);
    let rows = await rowsOf(id);
    expect(rows.map((row) => row.costPicos)).toEqual([CALL_PICOS, CALL_PICOS, CALL_PICOS, null]);
    expect(rows[0]).toMatchObject({
      pricePerCall: 30_000,
      pricePer1mInput: 1_500_000,
      pricePer1mOutput: 6_000_000,
    });
    expect(rows[3]).toMatchObject({ pricePerCall: null });
    expect((await rowsOf(failing)).map((row) => row.costPicos)).toEqual([null]);

    // A new price applies from the next call; earlier rows keep theirs.
    const changed = await send(t.app, provider.headers, 'PATCH', `/api/aiendpoint/${id}`, {
      config: {
        price: { per_call: 100_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
        cache_ttl_s: 60,
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call(callerKey.raw, 'pricey/chat', 'cached')).status).toBe(200);
    const hit = await call(callerKey.raw, 'pricey/chat', 'cached');
    expect(hit.headers.get('x-air-cache')).toBe('hit');
    rows = await rowsOf(id);
    expect(rows.slice(4).map((row) => [row.costPicos, row.pricePerCall, row.cacheHit])).toEqual([
      [100_000_000_000, 100_000, false],
      [null, null, true],
    ]);
    expect(rows[0]!.costPicos).toBe(CALL_PICOS);
  });

  it("falls back to another account's priced route only when the caller has a card", async () => {
    const provider = await newOwner(t.app, 'free');
    const caller = await newOwner(t.app, 'free');
    await priced(provider, 'pricey/fallback');
    const own = await send(t.app, caller.headers, 'POST', '/api/aiendpoint', {
      route_name: 'mine/failing',
      route_endpoint: `${upstream.url}/error`,
      config: { fallbacks: ['pricey/fallback'] },
    });
    expect(own.statusCode, own.body).toBe(201);
    const key = await insertKey(t.db, t.config.secret, caller.accountId);
    // No card: the priced fallback is not called; the route's own answer (429) passes through.
    const without = await call(key.raw, 'mine/failing');
    expect(without.status).toBe(429);
    expect(without.headers.get('x-air-attempts')).toBe('1');
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    await expect
      .poll(async () => {
        const answer = await call(key.raw, 'mine/failing');
        return [answer.status, answer.headers.get('x-air-route')];
      })
      .toEqual([200, 'pricey/fallback']);
  });

  it('keeps a priced call price through the journal (a kill -9 loses no spend)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'air-journal-price-'));
    try {
      const journal = new UsageJournal(dir);
      journal.open();
      const start = {
        callerAccountId: '00000000-0000-4000-8000-000000000001',
        keyId: '00000000-0000-4000-8000-000000000002',
        endpointId: '00000000-0000-4000-8000-000000000003',
        providerAccountId: '00000000-0000-4000-8000-000000000004',
      };
      const end = {
        status: 200,
        latencyMs: 5,
        promptTokens: 11,
        completionTokens: 7,
        tokensEstimated: false,
        streamed: false,
        errorCode: null,
        attempts: 1,
        cacheHit: false,
        createdAt: new Date(),
      };
      journal.end(journal.start(start, Date.now()), { ...end, price: PRICE });
      journal.end(journal.start(start, Date.now()), { ...end, price: null });
      // Capped by the caller's spend limit: the cap is journalled with the price.
      journal.end(journal.start(start, Date.now()), { ...end, price: PRICE, costCapPicos: 12_500_000_000 });
      journal.close(false);
      const rows = UsageJournal.recover(dir).flatMap((segment) => segment.rows);
      expect(rows.map((row) => row.price)).toEqual([PRICE, null, PRICE]);
      expect(rows.map((row) => row.costCapPicos ?? null)).toEqual([null, null, 12_500_000_000]);
      expect(rows.map((row) => chargedPicos(row))).toEqual([CALL_PICOS, null, 12_500_000_000]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
