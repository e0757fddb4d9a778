import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../src/gateway/spend-reservation';
import { createTestApp, type TTestApp } from './helpers';
import {
  COMPLETION,
  STREAM_USAGE,
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  startWellInsideAMinute,
  writeTestPlans,
  type TMockUpstream,
} from './gateway-fixtures';
import { tally } from './instances';

/*
 * Issue 42, item 1, on one instance (the in-process counters): a key's tokens per minute are
 * reserved at admission (the prompt counted with the tokenizer plus max_tokens, or the bound the
 * gateway sets) and settled to what the call used. The mock answers 11 prompt and 7 completion
 * tokens (COMPLETION.usage); "Hi" in one message reserves 8 prompt tokens (1 token and the chat
 * format's 7), so a call with max_tokens 10 reserves exactly what it uses: 18.
 */
const PROMPT = 8;
const USED = COMPLETION.usage.prompt_tokens + COMPLETION.usage.completion_tokens;

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
let plansDir: string;

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-token-plans-'));
  upstream = await startMockUpstream();
  // Plans with room for the bursts (1,000 calls a minute), and one with 100 tokens a minute.
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  rmSync(plansDir, { recursive: true, force: true });
});

let seq = 0;
/** An account with a key limited to `tokensPerMinute` and a private route on the mock (`path`). */
async function limitedKey(tokensPerMinute: number | null, plan = 'free') {
  const account = await insertAccount(t.db, `Tokens ${++seq}`, plan);
  const key = await insertKey(t.db, t.config.secret, account.id);
  await t.db.update(apiKeys).set({ tokensPerMinute }).where(eq(apiKeys.id, key.id));
  const routeName = `tokens/route-${seq}`;
  await insertEndpoint(t.db, t.config.secret, account.id, { routeName, routeEndpoint: `${upstream.url}/ok` });
  return { key, routeName, accountId: account.id };
}

async function chat(key: string, routeName: string, extra: object = {}) {
  const answer = await fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'Hi' }], ...extra }),
  });
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, text };
}

describe('tokens per minute on one instance', () => {
  it('passes exactly the calls whose reservations fit in a 200-call burst at the boundary', async () => {
    await startWellInsideAMinute();
    // Room for 10 calls and 17 tokens: the 11th reservation (18) would pass the limit.
    const { key, routeName } = await limitedKey(10 * USED + 17);
    const seen = upstream.seen.length;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => chat(key.raw, routeName, { max_tokens: 10 })),
    );
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 200: 10, 429: 190 });
    // No refused call reached the upstream.
    expect(upstream.seen.length - seen).toBe(10);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(JSON.parse(refused.text).error.code).toBe('token_rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe(String(10 * USED + 17));
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('17');
    expect(refused.headers.get('x-ratelimit-reset-tokens')).toMatch(/^\d+s$/);
    // The counter holds what the ten calls used, no more.
    expect(await gatewayStateOf(t.app).counters.tokensNow(key.id)).toBe(10 * USED);
  });

  it('settles a call that used fewer tokens than it reserved, and gives the difference back', async () => {
    await startWellInsideAMinute();
    const limit = 1000;
    const { key, routeName } = await limitedKey(limit);
    const first = await chat(key.raw, routeName, { max_tokens: 100 });
    expect(first.status).toBe(200);
    // Reserved 8 + 100; remaining as the call was admitted.
    expect(first.headers.get('x-ratelimit-remaining-tokens')).toBe(String(limit - PROMPT - 100));
    await expect.poll(() => gatewayStateOf(t.app).counters.tokensNow(key.id)).toBe(USED);
    const second = await chat(key.raw, routeName, { max_tokens: 100 });
    // The first settled to the 18 it used.
    expect(second.headers.get('x-ratelimit-remaining-tokens')).toBe(String(limit - USED - PROMPT - 100));
  });

  it('reserves the bound the gateway sets when the caller gives none, and settles a stream to its usage', async () => {
    await startWellInsideAMinute();
    const limit = 10_000;
    const { key, routeName } = await limitedKey(limit);
    const seen = upstream.seen.length;
    const streamed = await chat(key.raw, routeName, { stream: true });
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain('[DONE]');
    // The upstream was asked for at most the gateway's bound, and that much was reserved.
    expect(JSON.parse(upstream.seen[seen]!.body.toString()).max_tokens).toBe(DEFAULT_MAX_OUTPUT_TOKENS);
    expect(streamed.headers.get('x-ratelimit-remaining-tokens')).toBe(
      String(limit - PROMPT - DEFAULT_MAX_OUTPUT_TOKENS),
    );
    const streamUsed = STREAM_USAGE.prompt_tokens + STREAM_USAGE.completion_tokens;
    // The stream settles when its metering ends, a moment after its last byte.
    await expect.poll(() => gatewayStateOf(t.app).counters.tokensNow(key.id)).toBe(streamUsed);
    const after = await chat(key.raw, routeName, { max_tokens: 10 });
    expect(after.headers.get('x-ratelimit-remaining-tokens')).toBe(String(limit - streamUsed - PROMPT - 10));
  });

  it('refuses a call that alone reserves more than the limit as final, and forwards nothing', async () => {
    const { key, routeName } = await limitedKey(50);
    const seen = upstream.seen.length;
    const answer = await chat(key.raw, routeName, { max_tokens: 100 });
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.text).error.code).toBe('token_rate_limit_exceeded');
    expect(answer.headers.get('x-should-retry')).toBe('false');
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(upstream.seen.length).toBe(seen);
  });

  it("applies the plan's tokens per minute, and the lower of the plan's and the key's", async () => {
    await startWellInsideAMinute();
    // The plan allows 100 a minute: 5 calls of 18.
    const byPlan = await limitedKey(null, 'tokenlimited');
    const planned = await Promise.all(
      Array.from({ length: 20 }, () => chat(byPlan.key.raw, byPlan.routeName, { max_tokens: 10 })),
    );
    expect(tally(planned.map((answer) => answer.status))).toEqual({ 200: 5, 429: 15 });
    // The key's own 40 is lower: 2 calls.
    const byKey = await limitedKey(40, 'tokenlimited');
    const keyed = await Promise.all(
      Array.from({ length: 20 }, () => chat(byKey.key.raw, byKey.routeName, { max_tokens: 10 })),
    );
    expect(tally(keyed.map((answer) => answer.status))).toEqual({ 200: 2, 429: 18 });
    expect(keyed[0]!.headers.get('x-ratelimit-limit-tokens')).toBe('40');
  });

  it('leaves a key without a token limit untouched: no headers, no bound on its body', async () => {
    const account = await insertAccount(t.db, 'Unlimited', 'free');
    const key = await insertKey(t.db, t.config.secret, account.id);
    const routeName = `tokens/unlimited-${++seq}`;
    await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName,
      routeEndpoint: `${upstream.url}/ok`,
    });
    const seen = upstream.seen.length;
    const answer = await chat(key.raw, routeName);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-ratelimit-limit-tokens')).toBeNull();
    expect(JSON.parse(upstream.seen[seen]!.body.toString()).max_tokens).toBeUndefined();
  });
});
