import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../src/db/schema';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import { createTestApp, type TTestApp } from './helpers';
import {
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  startWellInsideAMinute,
  writeTestPlans,
  type TMockUpstream,
} from './gateway-fixtures';
import { chatOverHttp, sharePricedRoute } from './marketplace-helpers';

/*
 * Issue 37, item 6: a refusal that cannot succeed on retry within the period (key cap, plan quota,
 * spend limit, payment required) says so with `x-should-retry: false` and no `Retry-After`; the
 * official OpenAI SDK then makes one request, where it used to make three (its default two
 * retries) for a 429 key_quota_exceeded. The per-minute limits keep their Retry-After.
 */

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
let plansDir: string;
/** Requests that reached AIR's HTTP server for a chat completion, counted on the server. */
let chatRequests = 0;

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-final-plans-'));
  upstream = await startMockUpstream();
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // First listener of the server: sees every request, the fast lane's included.
  t.app.server.prependListener('request', (request: IncomingMessage) => {
    if (request.url === '/api/v1/chat/completions') chatRequests += 1;
  });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  rmSync(plansDir, { recursive: true, force: true });
});

let seq = 0;
/** An account on `plan` with a key and a private route on the mock upstream. */
async function ownRoute(plan: string) {
  const account = await insertAccount(t.db, `Final ${++seq}`, plan);
  const key = await insertKey(t.db, t.config.secret, account.id);
  const routeName = `final/route-${seq}`;
  await insertEndpoint(t.db, t.config.secret, account.id, { routeName, routeEndpoint: `${upstream.url}/ok` });
  return { key, routeName };
}

/** An SDK client with the SDK's default retries (two), as a developer would make it. */
function sdk(key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${base}/api/v1` });
}

/** One `chat.completions.create`: the error it ended with and how many requests reached AIR. */
async function sdkRefusal(key: string, routeName: string) {
  const before = chatRequests;
  const started = Date.now();
  const error = await sdk(key)
    .chat.completions.create({ model: routeName, messages: [{ role: 'user', content: 'Hi' }] })
    .then(
      () => null,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  const apiError = error as InstanceType<typeof OpenAI.APIError>;
  return { error: apiError, requests: chatRequests - before, ms: Date.now() - started };
}

/** The headers that tell a client whether to retry, of one refused call over HTTP. */
async function retryHeaders(key: string, routeName: string) {
  const answer = await chatOverHttp(base, key, routeName);
  const body = (await answer.json()) as { error: { code: string } };
  return {
    status: answer.status,
    code: body.error.code,
    shouldRetry: answer.headers.get('x-should-retry'),
    retryAfter: answer.headers.get('retry-after'),
  };
}

describe('gateway: refusals that cannot succeed on retry', () => {
  it('a key over its monthly cap: one request for one SDK call, x-should-retry false, no Retry-After', async () => {
    const { key, routeName } = await ownRoute('free');
    await t.db.update(apiKeys).set({ monthlyCalls: 1 }).where(eq(apiKeys.id, key.id));
    t.app.forgetApiKey(key.hash);
    await sdk(key.raw).chat.completions.create({
      model: routeName,
      messages: [{ role: 'user', content: 'Hi' }],
    });

    const refused = await sdkRefusal(key.raw, routeName);
    expect(refused.error.status).toBe(429);
    expect(refused.error.code).toBe('key_quota_exceeded');
    expect(refused.requests).toBe(1);
    expect(refused.error.headers?.get('x-should-retry')).toBe('false');
    expect(refused.error.headers?.get('retry-after')).toBeNull();
    // No back-off wait either (the SDK waited 0.5 s and more between its retries).
    expect(refused.ms).toBeLessThan(400);
  });

  it("the plan's monthly quota: 402 quota_exceeded, one request, x-should-retry false", async () => {
    const { key, routeName } = await ownRoute('tinyquota');
    for (let i = 0; i < 2; i++) expect((await chatOverHttp(base, key.raw, routeName)).status).toBe(200);
    const refused = await sdkRefusal(key.raw, routeName);
    expect([refused.error.status, refused.error.code, refused.requests]).toEqual([402, 'quota_exceeded', 1]);
    expect(await retryHeaders(key.raw, routeName)).toEqual({
      status: 402,
      code: 'quota_exceeded',
      shouldRetry: 'false',
      retryAfter: null,
    });
  });

  it('payment required and the spend limit: 402, x-should-retry false, no Retry-After', async () => {
    const provider = await newOwner(t.app, 'free');
    const routeName = `final${process.pid}/priced`;
    const price = { per_call: 5, per_1m_input_tokens: 0, per_1m_output_tokens: 0 };
    await sharePricedRoute(t.app, provider, routeName, `${upstream.url}/ok`, price);

    const noCard = await newOwner(t.app, 'free');
    const noCardKey = await insertKey(t.db, t.config.secret, noCard.accountId);
    expect(await retryHeaders(noCardKey.raw, routeName)).toEqual({
      status: 402,
      code: 'payment_required',
      shouldRetry: 'false',
      retryAfter: null,
    });

    const limited = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, limited.headers, CARDS.ok);
    expect((await send(t.app, limited.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(
      200,
    );
    const spendLimit = { marketplace_spend_limit: 0 };
    expect(
      (await send(t.app, limited.headers, 'PATCH', '/api/account/spend-limit', spendLimit)).statusCode,
    ).toBe(200);
    const limitedKey = await insertKey(t.db, t.config.secret, limited.accountId);
    expect(await retryHeaders(limitedKey.raw, routeName)).toEqual({
      status: 402,
      code: 'spend_limit_reached',
      shouldRetry: 'false',
      retryAfter: null,
    });
  });

  it('the per-minute rate limit still carries Retry-After and leaves the retry to the client', async () => {
    await startWellInsideAMinute();
    const { key, routeName } = await ownRoute('ratelimited');
    for (let i = 0; i < 2; i++) expect((await chatOverHttp(base, key.raw, routeName)).status).toBe(200);
    const refused = await retryHeaders(key.raw, routeName);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded', shouldRetry: null });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  });
});
