import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, invoices, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { advance, CARDS, cardToken, newOwner, send } from './billing-helpers';
import { insertKey } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';
import { refusedUrl, startProgrammableUpstream, type TProgrammableUpstream } from './routing-fixtures';

/*
 * One model, many providers (contract 5b): endpoints declare the model they serve (`model_id`),
 * a caller names the model instead of a route with OpenRouter's `provider` preferences, and the
 * gateway picks among the providers the key may call, falls back across them before the first
 * byte, says which answered (`x-air-route`) and meters the call on it; `GET /v1/models` lists
 * the model ids.
 */

let t: TTestApp;
let base: string;
const upstreams: TProgrammableUpstream[] = [];

beforeAll(async () => {
  t = await createTestApp({ upstreamAllowPrivate: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // The draw that spreads model calls across providers: 0 unless a test scripts its own. A draw
  // of 0 picks the cheapest first under the default price-weighted spread (decision 060).
  gatewayStateOf(t.app).random = () => 0;
});

afterAll(async () => {
  await t?.close();
  for (const upstream of upstreams) await upstream.close();
});

async function upstream(name: string) {
  const started = await startProgrammableUpstream(name);
  upstreams.push(started);
  return started;
}

/** Micros per million tokens. */
const perMillion = (input: number, output = input) => ({
  per_call: 0,
  per_1m_input_tokens: input,
  per_1m_output_tokens: output,
});

type TOwner = Awaited<ReturnType<typeof newOwner>>;

let seq = 0;
/** A fresh model id per test: the gateway keeps each model's providers for up to 60 s. */
const freshModel = () => `Test-Org/Llama 3.1 70B ${process.pid}-${seq++}`;
const normalized = (id: string) => id.trim().toLowerCase().replace(/\s+/g, '-');

/** `owner` shares an endpoint serving `modelId` at `url` (created through the API); its route name. */
async function provide(
  owner: TOwner,
  slug: string,
  url: string,
  modelId: string,
  price: object | null,
  extra: Record<string, unknown> = {},
): Promise<{ routeName: string; id: string }> {
  const routeName = `${slug}/llama-${seq++}`;
  const created = await send(t.app, owner.headers, 'POST', '/api/aiendpoint', {
    route_name: routeName,
    route_endpoint: url,
    isShared: true,
    isPrivate: false,
    model_id: modelId,
    config: { price },
    ...extra,
  });
  expect(created.statusCode, created.body).toBe(201);
  return { routeName, id: created.json().data.id as string };
}

async function callerWithCard() {
  const caller = await newOwner(t.app, 'free');
  const token = await cardToken(t.app, caller.headers, CARDS.ok);
  expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
  const key = await insertKey(t.db, t.config.secret, caller.accountId);
  return { caller, key };
}

function chat(rawKey: string, body: Record<string, unknown>) {
  return fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${rawKey}` },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }], ...body }),
  });
}

async function rowsOfCaller(accountId: string) {
  await gatewayStateOf(t.app).meter.flush();
  return t.db
    .select()
    .from(usageEvents)
    .where(eq(usageEvents.callerAccountId, accountId))
    .orderBy(asc(usageEvents.id));
}

/** Three providers of one model: alpha 3.00, beta 1.00, gamma 2.00 per million tokens (or `prices`). */
async function threeProviders(
  urls?: { alpha?: string; beta?: string; gamma?: string },
  prices: { alpha: object; beta: object; gamma: object } = {
    alpha: perMillion(3e6),
    beta: perMillion(1e6),
    gamma: perMillion(2e6),
  },
) {
  const modelId = freshModel();
  const up = { alpha: await upstream('alpha'), beta: await upstream('beta'), gamma: await upstream('gamma') };
  const n = seq++;
  const owners = {
    alpha: await newOwner(t.app, 'free'),
    beta: await newOwner(t.app, 'free'),
    gamma: await newOwner(t.app, 'free'),
  };
  const alpha = await provide(owners.alpha, `alpha-${n}`, urls?.alpha ?? up.alpha.url, modelId, prices.alpha);
  const beta = await provide(owners.beta, `beta-${n}`, urls?.beta ?? up.beta.url, modelId, prices.beta);
  const gamma = await provide(owners.gamma, `gamma-${n}`, urls?.gamma ?? up.gamma.url, modelId, prices.gamma);
  return { modelId: normalized(modelId), up, owners, alpha, beta, gamma, n };
}

describe('model_id on endpoints', () => {
  it('is stored normalized, returned on GET to the owner and to other accounts, cleared with an empty text', async () => {
    const owner = await newOwner(t.app, 'free');
    const other = await newOwner(t.app, 'free');
    const { id } = await provide(
      owner,
      `norm-${seq++}`,
      'http://127.0.0.1:9/v1/chat/completions',
      '  Meta-Llama/Llama 3.1   70B ',
      null,
    );
    const own = await t.app.inject({ method: 'GET', url: `/api/aiendpoint/${id}`, headers: owner.headers });
    expect(own.json().data.model_id).toBe('meta-llama/llama-3.1-70b');
    const shared = await t.app.inject({
      method: 'GET',
      url: `/api/aiendpoint/${id}`,
      headers: other.headers,
    });
    expect(shared.json().data).toMatchObject({ editable: false, model_id: 'meta-llama/llama-3.1-70b' });
    const cleared = await send(t.app, owner.headers, 'PATCH', `/api/aiendpoint/${id}`, { model_id: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data.model_id).toBeNull();
    const bad = await send(t.app, owner.headers, 'PATCH', `/api/aiendpoint/${id}`, { model_id: 'a\u0007b' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('model_id');
  });
});

describe('calling a model by its id', () => {
  it('sort: price calls the cheapest provider, sends it the model id without `provider`, meters and charges the call on it', async () => {
    const m = await threeProviders();
    const { caller, key } = await callerWithCard();
    const answer = await chat(key.raw, { model: m.modelId, provider: { sort: 'price' } });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(answer.headers.get('x-air-route')).toBe(m.beta.routeName);
    expect((await answer.json()).id).toBe('chatcmpl-beta');
    expect(m.up.beta.calls).toHaveLength(1);
    const sent = JSON.parse(m.up.beta.calls[0]!.body) as Record<string, unknown>;
    expect(sent.model).toBe(m.modelId);
    expect(sent).not.toHaveProperty('provider');
    expect(m.up.alpha.calls.length + m.up.gamma.calls.length).toBe(0);
    // Without preferences, a draw of 0 is the cheapest too. Upper case in `model` finds it too.
    const plain = await chat(key.raw, { model: m.modelId.toUpperCase() });
    expect(plain.headers.get('x-air-route')).toBe(m.beta.routeName);
    const rows = await rowsOfCaller(caller.accountId);
    expect(rows.map((row) => row.endpointId)).toEqual([m.beta.id, m.beta.id]);
    expect(rows[0]).toMatchObject({
      status: 200,
      pricePer1mInput: 1e6,
      providerAccountId: m.owners.beta.accountId,
    });
    expect(rows[0]!.costPicos).toBeGreaterThan(0);
  });

  it('only, ignore and max_price leave providers out; none left is a 404 saying so', async () => {
    const m = await threeProviders();
    const { key } = await callerWithCard();
    const route = async (provider: Record<string, unknown>) => {
      const answer = await chat(key.raw, { model: m.modelId, provider });
      expect(answer.status, await answer.clone().text()).toBe(200);
      return answer.headers.get('x-air-route');
    };
    expect(await route({ only: [`ALPHA-${m.n}`] })).toBe(m.alpha.routeName);
    expect(await route({ ignore: [`beta-${m.n}`] })).toBe(m.gamma.routeName);
    expect(await route({ ignore: [`beta-${m.n}`, `gamma-${m.n}`] })).toBe(m.alpha.routeName);
    // 1.50 per million prompt tokens at most: beta alone; completion bound 0.50: nobody.
    expect(await route({ max_price: { prompt: 1.5 }, ignore: [] })).toBe(m.beta.routeName);
    expect(await route({ max_price: { prompt: 2.5, completion: 2.5 }, ignore: [`beta-${m.n}`] })).toBe(
      m.gamma.routeName,
    );
    const none = await chat(key.raw, { model: m.modelId, provider: { max_price: { completion: 0.5 } } });
    expect(none.status).toBe(404);
    const error = (await none.json()).error;
    expect(error.code).toBe('route_not_found');
    expect(error.message).toContain(m.modelId);
    const bad = await chat(key.raw, { model: m.modelId, provider: { sort: 'cheapest' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain('provider.sort');
  });

  it('falls back to the next provider when the first refuses connections, unless allow_fallbacks is false', async () => {
    const refused = await refusedUrl();
    const m = await threeProviders({ beta: refused });
    const { caller, key } = await callerWithCard();
    const answer = await chat(key.raw, { model: m.modelId });
    expect(answer.status, await answer.clone().text()).toBe(200);
    // beta (cheapest) refused: gamma (next by price) answered.
    expect(answer.headers.get('x-air-route')).toBe(m.gamma.routeName);
    expect(answer.headers.get('x-air-attempts')).toBe('2');
    expect(JSON.parse(m.up.gamma.calls[0]!.body).model).toBe(m.modelId);
    const rows = await rowsOfCaller(caller.accountId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ endpointId: m.gamma.id, status: 200, attempts: 2, pricePer1mInput: 2e6 });
    // The caller asked for a model, not for beta's route: no "asked for" route (decision 058).
    expect(rows[0]).toMatchObject({
      requestedEndpointId: null,
      clientFormat: 'openai',
      upstreamFormat: 'openai',
    });

    // A streamed call falls back the same way, and streams from the provider that answered.
    const streamed = await chat(key.raw, { model: m.modelId, stream: true });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(streamed.headers.get('x-air-route')).toBe(m.gamma.routeName);
    expect(await streamed.text()).toContain('from gamma');

    const alone = await chat(key.raw, { model: m.modelId, provider: { allow_fallbacks: false } });
    expect(alone.status).toBe(502);
    expect(alone.headers.get('x-air-route')).toBe(m.beta.routeName);
    expect((await alone.json()).error.code).toBe('upstream_unreachable');
    expect(m.up.gamma.calls).toHaveLength(2);
  });

  it('falls back on an upstream 503 before the first byte; a 400 passes through at once', async () => {
    const m = await threeProviders();
    const { key } = await callerWithCard();
    m.up.beta.queue({ kind: 'status', status: 503 });
    m.up.gamma.queue({ kind: 'status', status: 503 });
    const answer = await chat(key.raw, { model: m.modelId });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-air-route')).toBe(m.alpha.routeName);
    expect(answer.headers.get('x-air-attempts')).toBe('3');
    m.up.beta.queue({ kind: 'status', status: 400 });
    const refused = await chat(key.raw, { model: m.modelId });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-air-route')).toBe(m.beta.routeName);
    expect(m.up.gamma.calls).toHaveLength(1);
  });

  it('a caller without a card is sent to a free provider, and gets 402 when every provider is priced', async () => {
    const modelId = freshModel();
    const n = seq++;
    const paid = await upstream('paid');
    const free = await upstream('free');
    const priced = await provide(
      await newOwner(t.app, 'free'),
      `paid-${n}`,
      paid.url,
      modelId,
      perMillion(1),
    );
    const caller = await newOwner(t.app, 'free');
    const key = await insertKey(t.db, t.config.secret, caller.accountId);
    const refused = await chat(key.raw, { model: normalized(modelId) });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.code).toBe('payment_required');
    const freeRoute = await provide(await newOwner(t.app, 'free'), `free-${n}`, free.url, modelId, null);
    // The new endpoint is seen at once (the change clears the model's providers).
    const answer = await chat(key.raw, { model: normalized(modelId) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-air-route')).toBe(freeRoute.routeName);
    expect(priced.routeName).not.toBe(freeRoute.routeName);
    expect(paid.calls).toHaveLength(0);
  });

  it("never uses another account's private endpoint, nor one outside the key's allow-list", async () => {
    const modelId = freshModel();
    const n = seq++;
    const hidden = await upstream('hidden');
    const open = await upstream('open');
    await provide(await newOwner(t.app, 'free'), `hidden-${n}`, hidden.url, modelId, null, {
      isPrivate: true,
    });
    const listed = await provide(
      await newOwner(t.app, 'free'),
      `open-${n}`,
      open.url,
      modelId,
      perMillion(9e6),
    );
    const { key, caller } = await callerWithCard();
    const answer = await chat(key.raw, { model: normalized(modelId) });
    expect(answer.headers.get('x-air-route')).toBe(listed.routeName);
    expect(hidden.calls).toHaveLength(0);
    const limited = await insertKey(t.db, t.config.secret, caller.accountId);
    await t.db
      .update(apiKeys)
      .set({ routes: ['nobody/else'] })
      .where(eq(apiKeys.id, limited.id));
    const outside = await chat(limited.raw, { model: normalized(modelId) });
    expect(outside.status).toBe(404);
  });
});

/** Scripted draws for the next calls: `count` evenly spaced ones, each in the middle of its slice of [0, 1). */
function evenDraws(count: number) {
  let next = 0;
  gatewayStateOf(t.app).random = () => (next++ % count) / count + 0.5 / count;
}

describe('spreading calls across providers (decision 060)', () => {
  afterEach(() => {
    gatewayStateOf(t.app).random = () => 0;
  });

  /**
   * Who answered each of `count` model calls of `accountId` with these preferences, counted by
   * route name (a fresh key each time: a key's rate limit is 60 calls a minute).
   */
  async function shares(
    accountId: string,
    modelId: string,
    count: number,
    provider?: Record<string, unknown>,
  ) {
    const key = (await insertKey(t.db, t.config.secret, accountId)).raw;
    const answered = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const answer = await chat(key, provider ? { model: modelId, provider } : { model: modelId });
      expect(answer.status, await answer.clone().text()).toBe(200);
      const route = answer.headers.get('x-air-route')!;
      answered.set(route, (answered.get(route) ?? 0) + 1);
    }
    return Object.fromEntries(answered);
  }

  const equalPrices = { alpha: perMillion(2e6), beta: perMillion(2e6), gamma: perMillion(2e6) };

  it('60 calls across three providers of one price: 20 each, with and without sort: price', async () => {
    const m = await threeProviders(undefined, equalPrices);
    const { caller } = await callerWithCard();
    evenDraws(60);
    const even = { [m.alpha.routeName]: 20, [m.beta.routeName]: 20, [m.gamma.routeName]: 20 };
    expect(await shares(caller.accountId, m.modelId, 60)).toEqual(even);
    expect(await shares(caller.accountId, m.modelId, 60, { sort: 'price' })).toEqual(even);
    // The upstreams saw it, not only the headers.
    expect([m.up.alpha.calls.length, m.up.beta.calls.length, m.up.gamma.calls.length]).toEqual([40, 40, 40]);
    // Equal on the sorted figure too (no figures at all here): spread the same way.
    expect(await shares(caller.accountId, m.modelId, 60, { sort: 'latency' })).toEqual(even);
  });

  it('a strictly cheaper provider takes every call with sort: price; the rest spread only among equals', async () => {
    const m = await threeProviders(undefined, {
      alpha: perMillion(2e6),
      beta: perMillion(1e6),
      gamma: perMillion(2e6),
    });
    const { caller } = await callerWithCard();
    evenDraws(60);
    expect(await shares(caller.accountId, m.modelId, 60, { sort: 'price' })).toEqual({
      [m.beta.routeName]: 60,
    });
    // Without beta, alpha and gamma rank equal: half each.
    expect(await shares(caller.accountId, m.modelId, 60, { sort: 'price', ignore: [`beta-${m.n}`] })).toEqual(
      {
        [m.alpha.routeName]: 30,
        [m.gamma.routeName]: 30,
      },
    );
  });

  it('without sort, the first provider is drawn by the inverse square of its price (36 : 9 : 4 for 1, 2, 3)', async () => {
    // alpha 3.00, beta 1.00, gamma 2.00: weights 1/9, 1, 1/4, i.e. 4, 36 and 9 of 49.
    const m = await threeProviders();
    const { caller } = await callerWithCard();
    evenDraws(49);
    expect(await shares(caller.accountId, m.modelId, 49)).toEqual({
      [m.beta.routeName]: 36,
      [m.gamma.routeName]: 9,
      [m.alpha.routeName]: 4,
    });
  });

  it('the providers not drawn stay the fallbacks: equal ones in turn, the others by price', async () => {
    const refused = await refusedUrl();
    // alpha refuses connections; beta and gamma share its price; a pricier delta stays last.
    const m = await threeProviders({ alpha: refused }, equalPrices);
    const delta = await upstream('delta');
    await provide(await newOwner(t.app, 'free'), `delta-${m.n}`, delta.url, m.modelId, perMillion(5e6));
    const { caller } = await callerWithCard();
    evenDraws(6);
    // Each of the three equal ones drawn first twice (by name: alpha, beta, gamma); alpha's two
    // turns fall back to the next in turn, beta (alpha, beta, gamma), never to the pricier delta.
    const answered = await shares(caller.accountId, m.modelId, 6, { sort: 'price' });
    expect(answered).toEqual({ [m.beta.routeName]: 4, [m.gamma.routeName]: 2 });
    expect(m.up.gamma.calls).toHaveLength(2);
    expect(delta.calls).toHaveLength(0);
  });
});

const MINUTE_MS = 60_000;

/**
 * Scripted calls of another account to an endpoint (one metering batch: the trigger rolls them up
 * into the catalog's figures), one per minute of the last hour: latency, completion tokens, status.
 */
async function script(
  endpoint: { id: string },
  provider: TOwner,
  callerAccountId: string,
  calls: { status: number; latencyMs: number; completionTokens: number }[],
) {
  const start = Date.now() - 60 * MINUTE_MS;
  await t.db.insert(usageEvents).values(
    calls.map((call, i) => ({
      callerAccountId,
      endpointId: endpoint.id,
      providerAccountId: provider.accountId,
      status: call.status,
      latencyMs: call.latencyMs,
      completionTokens: call.completionTokens,
      createdAt: new Date(start + i * MINUTE_MS),
    })),
  );
}

describe('sort by the catalog figures', () => {
  it('latency, throughput and reliability order by the figures, price by the price', async () => {
    const m = await threeProviders();
    const other = await newOwner(t.app, 'free');
    const ok = (latencyMs: number, completionTokens: number) => ({
      status: 200,
      latencyMs,
      completionTokens,
    });
    const down = (latencyMs: number) => ({ status: 500, latencyMs, completionTokens: 0 });
    // One call a minute: a minute with a success is up, one with a failure down (decision 057).
    // alpha: 8 s but 2000 tokens a call (250/s), always up; beta: 3 s, 100 tokens (33/s), up 1
    // minute in 4; gamma: 150 ms, 5 tokens (33/s), up 1 minute in 2.
    await script(m.alpha, m.owners.alpha, other.accountId, [ok(8000, 2000), ok(8000, 2000)]);
    await script(m.beta, m.owners.beta, other.accountId, [ok(3000, 100), down(3000), down(3000), down(3000)]);
    await script(m.gamma, m.owners.gamma, other.accountId, [ok(150, 5), down(150)]);
    const { key } = await callerWithCard();
    const first = async (sort: string) => {
      const answer = await chat(key.raw, { model: m.modelId, provider: { sort } });
      expect(answer.status, await answer.clone().text()).toBe(200);
      return answer.headers.get('x-air-route');
    };
    expect(await first('latency')).toBe(m.gamma.routeName);
    expect(await first('throughput')).toBe(m.alpha.routeName);
    expect(await first('reliability')).toBe(m.alpha.routeName);
    // Price (beta, the cheapest) is what each would be without the figures.
    expect(await first('price')).toBe(m.beta.routeName);
  });
});

describe('GET /v1/models', () => {
  it('lists each model id once with its number of providers and price range, and retrieves it', async () => {
    const m = await threeProviders();
    const { key, caller } = await callerWithCard();
    const list = await fetch(`${base}/api/v1/models`, { headers: { authorization: `Bearer ${key.raw}` } });
    expect(list.status).toBe(200);
    const data = (await list.json()).data as { id: string }[];
    const entry = data.find((model) => model.id === m.modelId);
    expect(entry).toMatchObject({
      object: 'model',
      owned_by: 'air',
      providers: 3,
      price: perMillion(1e6),
      price_range: { min: perMillion(1e6), max: perMillion(3e6) },
    });
    // The routes are still listed by name, beside the model.
    expect(data.map((model) => model.id)).toEqual(
      expect.arrayContaining([m.alpha.routeName, m.beta.routeName]),
    );
    const one = await fetch(`${base}/api/v1/models/${encodeURIComponent(m.modelId)}`, {
      headers: { authorization: `Bearer ${key.raw}` },
    });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ id: m.modelId, providers: 3 });
    // A key limited to two of the routes sees the model with those two providers only.
    const limited = await insertKey(t.db, t.config.secret, caller.accountId);
    await t.db
      .update(apiKeys)
      .set({ routes: [m.alpha.routeName, m.gamma.routeName] })
      .where(eq(apiKeys.id, limited.id));
    const narrow = await fetch(`${base}/api/v1/models`, {
      headers: { authorization: `Bearer ${limited.raw}` },
    });
    const seen = ((await narrow.json()).data as { id: string }[]).find((model) => model.id === m.modelId);
    expect(seen).toMatchObject({
      providers: 2,
      price: perMillion(2e6),
      price_range: { min: perMillion(2e6) },
    });
  });
});

// Last: it moves the billing clock past the period's end.
describe('the invoice', () => {
  it("names the provider that answered a model call after a fallback, at that provider's price", async () => {
    const refused = await refusedUrl();
    const perCall = (micros: number) => ({
      per_call: micros,
      per_1m_input_tokens: 0,
      per_1m_output_tokens: 0,
    });
    const m = await threeProviders(
      { beta: refused },
      { alpha: perCall(300_000), beta: perCall(100_000), gamma: perCall(200_000) },
    );
    // A caller on the free plan with a card, chosen at sign-up: its renewal bills the marketplace lines.
    const caller = await newOwner(t.app);
    expect(
      (await send(t.app, caller.headers, 'POST', '/api/account/plan', { plan: 'free' })).statusCode,
    ).toBe(200);
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    const key = await insertKey(t.db, t.config.secret, caller.accountId);
    for (let i = 0; i < 2; i++) {
      const answer = await chat(key.raw, { model: m.modelId });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-air-route')).toBe(m.gamma.routeName);
    }
    await gatewayStateOf(t.app).meter.flush();
    await advance(t.app, 32);
    const rows = await t.db.select().from(invoices).where(eq(invoices.accountId, caller.accountId));
    expect(rows).toHaveLength(1);
    const lines = rows[0]!.lines.filter((line) => line.description.startsWith('Marketplace'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.description).toContain(`${m.gamma.routeName}, 2 calls`);
    // 2 calls at 0.20: 40 cents, on gamma's line (beta refused, alpha never called).
    expect(lines[0]!.amount).toBe(40);
    expect(m.up.alpha.calls).toHaveLength(0);
  });
});
