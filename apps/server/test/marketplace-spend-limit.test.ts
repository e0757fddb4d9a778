import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TUsageList } from '@air/shared/schemas/usage';
import { usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, seedUser, signIn } from './identity-helpers';
import { insertKey, startMockUpstream, type TMockUpstream } from './gateway-fixtures';
import { chatOverHttp, sharePricedRoute } from './marketplace-helpers';

let upstream: TMockUpstream;

beforeAll(async () => {
  upstream = await startMockUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

/** The mock answers 11 prompt and 7 completion tokens. */
const TOKENS = { prompt: 11, completion: 7 };

/**
 * Every test runs on an instance counting in memory, and again on one counting in Redis (the
 * shared counters of several instances), when the run has a Redis database of its own.
 */
const variants: [string, string | undefined][] = [['in memory', undefined]];
if (process.env.TEST_REDIS_URL) variants.push(['in Redis', process.env.TEST_REDIS_URL]);

describe.each(variants)('marketplace spend limit, counted %s', (_name, redisUrl) => {
  let t: TTestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ upstreamAllowPrivate: true, redisUrl });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function call(
    key: string,
    routeName: string,
    maxTokens?: number,
  ): Promise<{ status: number; code?: string }> {
    const answer =
      maxTokens === undefined
        ? await chatOverHttp(base, key, routeName)
        : await fetch(`${base}/api/v1/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({
              model: routeName,
              messages: [{ role: 'user', content: 'hi' }],
              max_tokens: maxTokens,
            }),
          });
    const body = (await answer.json()) as { error?: { code: string } };
    return { status: answer.status, code: body.error?.code };
  }

  let seq = 0;
  /** A provider with a priced shared route, and a caller with a card and a gateway key. */
  async function market(price: {
    per_call: number;
    per_1m_input_tokens: number;
    per_1m_output_tokens: number;
  }) {
    const provider = await newOwner(t.app, 'free');
    const caller = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    const routeName = `spend${process.pid}/r${seq++}-${redisUrl ? 'redis' : 'memory'}`;
    const endpointId = await sharePricedRoute(t.app, provider, routeName, `${upstream.url}/ok`, price);
    const key = await insertKey(t.db, t.config.secret, caller.accountId);
    return { provider, caller, routeName, key, endpointId };
  }

  function setLimit(headers: Record<string, string>, limit: unknown) {
    return send(t.app, headers, 'PATCH', '/api/account/spend-limit', { marketplace_spend_limit: limit });
  }

  /**
   * The caller's stored (forwarded) calls: how many, and their exact cost (picos). Refusals are
   * logged too (gateway/refusal-log.ts), without an endpoint: they are not calls.
   */
  async function stored(accountId: string) {
    await gatewayStateOf(t.app).meter.flush();
    const [row] = await t.db
      .select({
        calls: sql<number>`count(*)::int`,
        picos: sql<number>`coalesce(sum(${usageEvents.costPicos}), 0)::float8`,
      })
      .from(usageEvents)
      .where(and(eq(usageEvents.callerAccountId, accountId), isNotNull(usageEvents.endpointId)));
    return { calls: Number(row!.calls), picos: Number(row!.picos) };
  }

  async function spendRow(headers: Record<string, string>) {
    const usage = await t.app.inject({ url: '/api/account/usage', headers });
    expect(usage.statusCode, usage.body).toBe(200);
    return (usage.json().data as TUsageList).find((row) => row.label === 'spend');
  }

  it('validates the limit and lets only an owner or admin set it', async () => {
    const owner = await newOwner(t.app, 'free');
    for (const bad of [-1, 1.5, '100', 100_000_001, true]) {
      const refused = await setLimit(owner.headers, bad);
      expect(refused.statusCode, `${String(bad)}: ${refused.body}`).toBe(400);
      expect(refused.json().inputError).toBe('marketplace_spend_limit');
    }
    const unknown = await send(t.app, owner.headers, 'PATCH', '/api/account/spend-limit', {
      marketplace_spend_limit: 5,
      extra: 1,
    });
    expect(unknown.statusCode).toBe(400);
    expect((await send(t.app, owner.headers, 'PATCH', '/api/account/spend-limit', {})).statusCode).toBe(400);

    // The most a limit may be (1,000,000.00), as before prices moved to micros (decision 043).
    const saved = await setLimit(owner.headers, 100_000_000);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({
      marketplace_spend_limit: 100_000_000,
      currency: 'usd',
      currency_symbol: '$',
    });
    expect((await spendRow(owner.headers))?.quota).toBe(100_000_000);
    expect((await setLimit(owner.headers, null)).json().data.marketplace_spend_limit).toBeNull();
    expect((await spendRow(owner.headers))?.quota).toBeNull();

    const roles = ['admin', 'developer', 'user'] as const;
    const answers: number[] = [];
    for (const role of roles) {
      const email = `spend-${role}-${process.pid}-${Date.now()}@example.com`;
      await seedUser(t.app, { email, role, accountId: owner.accountId });
      const headers = bearer((await signIn(t.app, email)).token);
      answers.push((await setLimit(headers, 7)).statusCode);
    }
    expect(answers).toEqual([200, 403, 403]);
    expect((await spendRow(owner.headers))?.quota).toBe(7);
  });

  it('stops 50 concurrent calls exactly at the limit: none charged past it, the refused ones cost nothing', async () => {
    const { caller, routeName, key } = await market({
      per_call: 50_000,
      per_1m_input_tokens: 0,
      per_1m_output_tokens: 0,
    });
    expect((await setLimit(caller.headers, 100)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(key.raw, routeName)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 402 && a.code === 'spend_limit_reached')).toHaveLength(30);
    // Refused calls are not calls: not stored, not charged, not counted against the quota.
    expect(await stored(caller.accountId)).toEqual({ calls: 20, picos: 1_000_000_000_000 });
    const usage = (await t.app.inject({ url: '/api/account/usage', headers: caller.headers })).json()
      .data as { label: string; total: number; quota: number | null; currency?: string }[];
    expect(usage.find((row) => row.label === 'calls')?.total).toBe(20);
    expect(usage.find((row) => row.label === 'spend')).toMatchObject({
      total: 100,
      quota: 100,
      currency: 'usd',
      currency_symbol: '$',
    });

    // A higher limit counts afresh from the stored spend: room for 4 calls more, exactly.
    expect((await setLimit(caller.headers, 120)).statusCode).toBe(200);
    const more = await Promise.all(Array.from({ length: 10 }, () => call(key.raw, routeName)));
    expect(more.filter((a) => a.status === 200)).toHaveLength(4);
    expect(await stored(caller.accountId)).toEqual({ calls: 24, picos: 1_200_000_000_000 });
    // No limit: priced calls go on (from a second key: the first has had its 60 calls a minute).
    expect((await setLimit(caller.headers, null)).statusCode).toBe(200);
    const second = await insertKey(t.db, t.config.secret, caller.accountId);
    expect((await call(second.raw, routeName)).status).toBe(200);
    expect((await stored(caller.accountId)).picos).toBe(1_250_000_000_000);
  });

  it('caps token-priced calls at the limit when the upstream counts more than was reserved', async () => {
    // 0.001 per call plus 0.001 per input and output token (1,000 micros; 1,000 per million
    // tokens, the most a price part may be). Each call reserves 1 + 8 prompt tokens ('hi' and the
    // chat format, as counted here) + its max_tokens of 7 = 16 tenths of a minor unit; the mock
    // counts 11 prompt tokens, so each costs 1 + 11 + 7 = 19 tenths: more than it reserved.
    const { caller, routeName, key, endpointId } = await market({
      per_call: 1_000,
      per_1m_input_tokens: 1_000_000_000,
      per_1m_output_tokens: 1_000_000_000,
    });
    const perCall = (1 + TOKENS.prompt + TOKENS.completion) * 1_000_000_000;
    expect((await setLimit(caller.headers, 5)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(key.raw, routeName, TOKENS.completion)).status);
    // 1.9 + 1.9, then 1.6 more would pass 5: refused before it is forwarded.
    expect(statuses).toEqual([200, 200, 402]);
    // Without max_tokens the gateway's bound (4096 output tokens) is reserved: far past the limit.
    expect((await call(key.raw, routeName)).code).toBe('spend_limit_reached');
    await gatewayStateOf(t.app).meter.flush();
    const rows = await t.db
      .select({ cost: usageEvents.costPicos })
      .from(usageEvents)
      .where(and(eq(usageEvents.endpointId, endpointId), eq(usageEvents.callerAccountId, caller.accountId)));
    expect(rows.map((row) => Number(row.cost))).toEqual([perCall, perCall]);

    // Concurrent calls: every admitted one reserved 1.6, cost 1.9; the settlement's cap keeps the
    // charges within the limit all the same.
    expect((await setLimit(caller.headers, 20)).statusCode).toBe(200);
    const burst = await Promise.all(
      Array.from({ length: 50 }, () => call(key.raw, routeName, TOKENS.completion)),
    );
    expect(burst.filter((a) => a.status === 402).every((a) => a.code === 'spend_limit_reached')).toBe(true);
    expect(burst.filter((a) => a.status === 200).length).toBeLessThanOrEqual(Math.floor((200 - 38) / 16));
    expect((await stored(caller.accountId)).picos).toBeLessThanOrEqual(200_000_000_000);
    expect((await spendRow(caller.headers))?.total).toBeLessThanOrEqual(20);
  });

  it("does not hold the provider's own calls or free routes to the limit", async () => {
    const { provider, routeName } = await market({
      per_call: 50_000,
      per_1m_input_tokens: 0,
      per_1m_output_tokens: 0,
    });
    expect((await setLimit(provider.headers, 0)).statusCode).toBe(200);
    const own = await insertKey(t.db, t.config.secret, provider.accountId);
    for (let i = 0; i < 3; i++) expect((await call(own.raw, routeName)).status).toBe(200);
    expect(await stored(provider.accountId)).toEqual({ calls: 3, picos: 0 });
  });
});
