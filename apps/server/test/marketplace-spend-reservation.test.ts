import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../src/gateway/spend-reservation';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import { createTestApp, type TTestApp } from './helpers';
import { insertEndpoint, insertKey, startWellInsideAMinute } from './gateway-fixtures';
import { sharePricedRoute } from './marketplace-helpers';

/*
 * Issue 37, item 3: a spend limit holds on token-priced routes under a burst. Every call reserves
 * the most it can cost before it is forwarded (its prompt and its `max_tokens`, or the gateway's
 * bound), so a burst gets no answer its limit does not pay for.
 */

/** What the mock upstream answers: a completion of 50 output tokens (and 3 prompt tokens). */
const OUTPUT_TOKENS = 50;
const PROMPT_TOKENS = 3;
/**
 * 1,000 per million tokens (1e9 micros, the most a price part may be): a tenth of a minor unit a
 * token, so a call costs 5 minor units, 5e10 picos (decision 043).
 */
const PER_TOKEN = 1_000_000_000;
/** One minor unit in picos, the unit of the stored cost. */
const MINOR = 10_000_000_000;

/**
 * An upstream answering every call after a short wait (so a burst overlaps), keeping each body;
 * on `/held` only once `release()` is called; `/fail` fails at once (502), keeping nothing.
 */
async function startTokenUpstream() {
  const bodies: Record<string, unknown>[] = [];
  let release = () => {};
  let held = new Promise<void>((resolve) => (release = resolve));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url?.startsWith('/fail')) {
        res.writeHead(502, { 'content-type': 'application/json' });
        return void res.end('{"error":{"message":"down"}}');
      }
      bodies.push(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>);
      const wait = req.url?.startsWith('/held') ? held : Promise.resolve();
      void wait.then(() =>
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id: 'chatcmpl-tokens',
              object: 'chat.completion',
              choices: [{ index: 0, message: { role: 'assistant', content: 'a b c d e' } }],
              usage: {
                prompt_tokens: PROMPT_TOKENS,
                completion_tokens: OUTPUT_TOKENS,
                total_tokens: PROMPT_TOKENS + OUTPUT_TOKENS,
              },
            }),
          );
        }, 30),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    release: () => {
      release();
      held = new Promise<void>((resolve) => (release = resolve));
    },
    close: () => {
      release();
      server.closeAllConnections();
      server.close();
    },
  };
}

let upstream: Awaited<ReturnType<typeof startTokenUpstream>>;
let t: TTestApp;
let base: string;

beforeAll(async () => {
  upstream = await startTokenUpstream();
  t = await createTestApp({ upstreamAllowPrivate: true, redisUrl: process.env.TEST_REDIS_URL });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  upstream?.close();
});

let seq = 0;

/** A provider's route priced by output (or input) tokens, and a caller with a card and a key. */
async function market(
  price: {
    per_call: number;
    per_1m_input_tokens: number;
    per_1m_output_tokens: number;
  },
  path = '/v1/chat/completions',
) {
  const provider = await newOwner(t.app, 'free');
  const caller = await newOwner(t.app, 'free');
  const token = await cardToken(t.app, caller.headers, CARDS.ok);
  expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
  const routeName = `reserve${process.pid}/r${seq++}`;
  await sharePricedRoute(t.app, provider, routeName, `${upstream.url}${path}`, price);
  const key = await insertKey(t.db, t.config.secret, caller.accountId);
  return { caller, routeName, key: key.raw };
}

function setLimit(headers: Record<string, string>, limit: number) {
  return send(t.app, headers, 'PATCH', '/api/account/spend-limit', { marketplace_spend_limit: limit });
}

async function call(key: string, routeName: string, extra: Record<string, unknown> = {}) {
  const answer = await fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'hi' }], ...extra }),
  });
  const body = (await answer.json()) as { error?: { code: string } };
  return { status: answer.status, code: body.error?.code };
}

function burst(size: number, key: string, routeName: string, extra: Record<string, unknown> = {}) {
  return Promise.all(Array.from({ length: size }, () => call(key, routeName, extra)));
}

/** The caller's stored charges (millionths of a minor unit). */
async function charged(accountId: string): Promise<number> {
  await gatewayStateOf(t.app).meter.flush();
  const [row] = await t.db
    .select({ picos: sql<number>`coalesce(sum(${usageEvents.costPicos}), 0)::float8` })
    .from(usageEvents)
    .where(eq(usageEvents.callerAccountId, accountId));
  return Number(row!.picos);
}

const OUTPUT_PRICE = { per_call: 0, per_1m_input_tokens: 0, per_1m_output_tokens: PER_TOKEN };
const COST = OUTPUT_TOKENS * PER_TOKEN;

describe('spend limit on token-priced routes under a burst', () => {
  it('answers only the calls whose reservation fits, and a raised limit buys only what it pays for', async () => {
    const { caller, routeName, key } = await market(OUTPUT_PRICE);
    expect((await setLimit(caller.headers, 20)).statusCode).toBe(200);
    // Each call reserves its max_tokens (50 tokens: 5 minor units): 4 of 50 fit in 20.
    const answers = await burst(50, key, routeName, { max_tokens: OUTPUT_TOKENS });
    const answered = answers.filter((a) => a.status === 200).length;
    expect(answered * COST).toBeLessThanOrEqual(20 * MINOR);
    expect(answered).toBe(4);
    expect(answers.filter((a) => a.status === 402 && a.code === 'spend_limit_reached')).toHaveLength(46);
    expect(await charged(caller.accountId)).toBe(20 * MINOR);

    // One minor unit more does not pay for a 5-unit call: the next burst gets no answer.
    expect((await setLimit(caller.headers, 21)).statusCode).toBe(200);
    const more = await burst(50, key, routeName, { max_tokens: OUTPUT_TOKENS });
    expect(more.filter((a) => a.status === 200)).toHaveLength(0);
    expect(more.every((a) => a.code === 'spend_limit_reached')).toBe(true);
    expect(await charged(caller.accountId)).toBe(20 * MINOR);
  });

  it("reserves the caller's max_completion_tokens or max_tokens, times the choices asked for", async () => {
    const { caller, routeName, key } = await market(OUTPUT_PRICE);
    expect((await setLimit(caller.headers, 9)).statusCode).toBe(200);
    // The larger of the two bounds is reserved (100 tokens: 10 minor units, more than 9) ...
    expect((await call(key, routeName, { max_completion_tokens: 100, max_tokens: 60 })).status).toBe(402);
    expect((await call(key, routeName, { max_completion_tokens: 60, max_tokens: 100 })).status).toBe(402);
    // ... times the choices asked for ...
    expect((await call(key, routeName, { max_tokens: 50, n: 2 })).status).toBe(402);
    // ... and a bound that fits is forwarded as the caller sent it, then charged what it cost.
    expect((await call(key, routeName, { max_tokens: 90 })).status).toBe(200);
    expect(upstream.bodies.at(-1)).toMatchObject({ max_tokens: 90 });
    expect(await charged(caller.accountId)).toBe(COST);
  });

  it("puts the gateway's output bound on a call that gave none, and reserves it", async () => {
    const { caller, routeName, key } = await market(OUTPUT_PRICE);
    // The bound (4096 tokens at a tenth of a minor unit each: 409.6) does not fit in 409: refused,
    // never forwarded.
    expect((await setLimit(caller.headers, Math.floor(DEFAULT_MAX_OUTPUT_TOKENS / 10))).statusCode).toBe(200);
    const seen = upstream.bodies.length;
    expect(await call(key, routeName)).toEqual({ status: 402, code: 'spend_limit_reached' });
    expect(upstream.bodies.length).toBe(seen);

    expect((await setLimit(caller.headers, Math.ceil(DEFAULT_MAX_OUTPUT_TOKENS / 10))).statusCode).toBe(200);
    expect((await call(key, routeName)).status).toBe(200);
    expect(upstream.bodies.at(-1)).toMatchObject({ max_tokens: DEFAULT_MAX_OUTPUT_TOKENS });
    // The caller's own bound goes upstream as it sent it.
    expect((await call(key, routeName, { max_tokens: 70 })).status).toBe(200);
    expect(upstream.bodies.at(-1)).toMatchObject({ max_tokens: 70 });
    expect(await charged(caller.accountId)).toBe(2 * COST);
  });

  it('counts the prompt when input tokens are priced', async () => {
    const { caller, routeName, key } = await market({
      per_call: 0,
      per_1m_input_tokens: PER_TOKEN,
      per_1m_output_tokens: PER_TOKEN,
    });
    // 'hi' is 1 token, plus the chat format's 4 for its message and 3 for the reply: 8, and 50 out.
    // 10 pays for one reservation of 5.8, not two (nor one more after it is settled at 5.3).
    expect((await setLimit(caller.headers, 10)).statusCode).toBe(200);
    const answers = await burst(10, key, routeName, { max_tokens: OUTPUT_TOKENS });
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await charged(caller.accountId)).toBe((PROMPT_TOKENS + OUTPUT_TOKENS) * PER_TOKEN);
  });

  it('keeps the reservations in flight when the limit is raised: the new limit holds them too', async () => {
    const { caller, routeName, key } = await market(OUTPUT_PRICE, '/held');
    expect((await setLimit(caller.headers, 20)).statusCode).toBe(200);
    // 4 calls reserve the whole 20 and wait at the upstream, unsettled and not stored yet.
    const seen = upstream.bodies.length;
    const first = burst(10, key, routeName, { max_tokens: OUTPUT_TOKENS });
    await expect.poll(() => upstream.bodies.length - seen).toBe(4);
    // Raised to 25 while they are in flight: room for one call more, not five.
    expect((await setLimit(caller.headers, 25)).statusCode).toBe(200);
    const second = burst(10, key, routeName, { max_tokens: OUTPUT_TOKENS });
    await expect.poll(() => upstream.bodies.length - seen).toBeGreaterThanOrEqual(5);
    upstream.release();
    const answers = [...(await first), ...(await second)];
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(await charged(caller.accountId)).toBe(25 * MINOR);
  });

  it('reserves for the priced fallback a free route may fall to', async () => {
    const { caller, routeName: priced, key } = await market(OUTPUT_PRICE);
    // The caller's own route (free to it) fails, and falls back to the priced one.
    const own = `reserve${process.pid}/own${seq++}`;
    const endpoint = await insertEndpoint(t.db, t.config.secret, caller.accountId, {
      routeName: own,
      routeEndpoint: `${upstream.url}/fail`,
    });
    await t.db
      .update(aiEndpoints)
      .set({ routing: { upstreams: [{ url: `${upstream.url}/fail`, weight: 1 }], fallbacks: [priced] } })
      .where(eq(aiEndpoints.id, endpoint.id));
    expect((await setLimit(caller.headers, 20)).statusCode).toBe(200);
    const answers = await burst(10, key, own, { max_tokens: OUTPUT_TOKENS });
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    expect(answers.filter((a) => a.code === 'spend_limit_reached')).toHaveLength(6);
    expect(await charged(caller.accountId)).toBe(20 * MINOR);
    // Without max_tokens the fallback's output bound is reserved, and goes upstream with the call.
    expect((await setLimit(caller.headers, 20 + Math.ceil(DEFAULT_MAX_OUTPUT_TOKENS / 10))).statusCode).toBe(
      200,
    );
    expect((await call(key, own)).status).toBe(200);
    expect(upstream.bodies.at(-1)).toMatchObject({ model: priced, max_tokens: DEFAULT_MAX_OUTPUT_TOKENS });
  });

  it('leaves free routes and callers without a limit as they were: no bound put on the body', async () => {
    const { routeName, key } = await market(OUTPUT_PRICE);
    expect((await call(key, routeName)).status).toBe(200);
    expect(upstream.bodies.at(-1)).not.toHaveProperty('max_tokens');
  });
});

/*
 * Issue 42, item 2: a key's own budget in money (`monthly_spend`, minor units) beside the
 * account's spend limit; a priced call's reservation must fit both, and past the key's it is 402
 * key_budget_exceeded, final. The key list shows its spend against the budget.
 */
describe('key budgets under a burst', () => {
  /** A caller on a plan with room for 200 calls a minute (or on `plan`), and a key with this budget. */
  async function budgeted(monthlySpend: number | null, plan = 'pro') {
    const provider = await newOwner(t.app, 'free');
    const caller = await newOwner(t.app, plan);
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    const routeName = `budget${process.pid}/r${seq++}`;
    // One minor unit a call (10,000 micros).
    await sharePricedRoute(t.app, provider, routeName, `${upstream.url}/v1/chat/completions`, {
      per_call: 10_000,
      per_1m_input_tokens: 0,
      per_1m_output_tokens: 0,
    });
    const created = await send(t.app, caller.headers, 'POST', '/api/key', {
      name: 'Budgeted',
      scope: ['gateway.invoke'],
      monthly_spend: monthlySpend,
    });
    expect(created.statusCode).toBe(201);
    const { data } = created.json() as {
      data: { id: string; full_key: string; monthly_spend: number | null };
    };
    expect(data.monthly_spend).toBe(monthlySpend);
    return { caller, routeName, key: data.full_key, keyId: data.id };
  }

  it('answers exactly the calls the key budget pays for in a 200-call burst, then refuses as final', async () => {
    const { caller, routeName, key, keyId } = await budgeted(5);
    const answers = await burst(200, key, routeName);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 402 && a.code === 'key_budget_exceeded')).toHaveLength(195);
    expect(await charged(caller.accountId)).toBe(5 * MINOR);
    const refused = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(refused.status).toBe(402);
    expect(refused.headers.get('x-should-retry')).toBe('false');
    expect(refused.headers.get('retry-after')).toBeNull();
    // The key list shows the key's spend against its budget, reached.
    const list = await t.app.inject({ method: 'GET', url: '/api/key', headers: caller.headers });
    const listed = (list.json() as { data: { id: string; usage: Record<string, unknown> }[] }).data;
    expect(listed.find((row) => row.id === keyId)!.usage).toMatchObject({
      calls: 5,
      spend: 5,
      budget_reached: true,
    });
    // A raised budget counts afresh from the stored spend: 2 more.
    expect(
      (await send(t.app, caller.headers, 'PATCH', `/api/key/${keyId}`, { monthly_spend: 7 })).statusCode,
    ).toBe(200);
    const more = await burst(20, key, routeName);
    expect(more.filter((a) => a.status === 200)).toHaveLength(2);
    expect(await charged(caller.accountId)).toBe(7 * MINOR);
  });

  it("refuses by the tighter of the key's budget and the account's spend limit", async () => {
    const { caller, routeName, key } = await budgeted(10);
    expect((await setLimit(caller.headers, 3)).statusCode).toBe(200);
    const answers = await burst(20, key, routeName);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.code === 'spend_limit_reached')).toHaveLength(17);
    // Raised past the key's budget: the key's budget binds now.
    expect((await setLimit(caller.headers, 100)).statusCode).toBe(200);
    const more = await burst(20, key, routeName);
    expect(more.filter((a) => a.status === 200)).toHaveLength(7);
    expect(more.filter((a) => a.code === 'key_budget_exceeded')).toHaveLength(13);
    expect(await charged(caller.accountId)).toBe(10 * MINOR);
  });

  it('refuses every priced call of a key whose budget is 0, and leaves its free calls alone', async () => {
    const { routeName, key } = await budgeted(0);
    expect(await call(key, routeName)).toEqual({ status: 402, code: 'key_budget_exceeded' });
  });

  /*
   * Issue 42 follow-up: a refusal in money is no call, so it must not use up the key's call rate
   * (the free plan's 60 a minute): after a minute's worth of budget and spend-limit refusals the
   * key's free call still goes. Their request-log rows stay bounded at the key's rate.
   */
  it("does not count budget and spend-limit refusals against the key's call rate limit", async () => {
    const { caller, routeName, key, keyId } = await budgeted(null, 'free');
    const own = `own${process.pid}/r${seq++}`;
    await insertEndpoint(t.db, t.config.secret, caller.accountId, {
      routeName: own,
      routeEndpoint: `${upstream.url}/v1/chat/completions`,
    });
    await startWellInsideAMinute();
    // The account's spend limit at 0 refuses every priced call, then the key's budget at 0 does.
    expect((await setLimit(caller.headers, 0)).statusCode).toBe(200);
    const limited = await burst(11, key, routeName);
    expect(limited.every((a) => a.status === 402 && a.code === 'spend_limit_reached')).toBe(true);
    expect((await setLimit(caller.headers, 100)).statusCode).toBe(200);
    const patched = await send(t.app, caller.headers, 'PATCH', `/api/key/${keyId}`, { monthly_spend: 0 });
    expect(patched.statusCode).toBe(200);
    const refused = await burst(50, key, routeName);
    expect(refused.every((a) => a.status === 402 && a.code === 'key_budget_exceeded')).toBe(true);
    // 61 refusals in this minute, past the plan's 60 calls: the free call is the minute's first.
    const free = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: own, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(free.status).toBe(200);
    expect(free.headers.get('x-ratelimit-remaining-requests')).toBe('59');
    // The refusals' rows: as many as the key may call in a minute, the one past it left out.
    await gatewayStateOf(t.app).meter.flush();
    const rows = await t.db
      .select({ code: usageEvents.errorCode })
      .from(usageEvents)
      .where(eq(usageEvents.keyId, keyId));
    expect(rows.filter((row) => row.code === 'spend_limit_reached')).toHaveLength(11);
    expect(rows.filter((row) => row.code === 'key_budget_exceeded')).toHaveLength(49);
    expect(rows.filter((row) => row.code === null)).toHaveLength(1);
  });
});
