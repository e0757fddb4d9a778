import type { TPrice } from '@air/shared/schemas/price';
import { describe, expect, it } from 'vitest';
import type { TKeyAuth } from '../core/credentials';
import type { TPlanLimits, TRouteEntry } from './directory';
import { applyEdits, objectStart } from './body-edit';
import type { TSpendAnswer, TSpendLimits } from './spend';
import {
  callerMaxTokens,
  createSpendReservation,
  DEFAULT_MAX_OUTPUT_TOKENS,
  outputBound,
  promptTokens,
  type TSpendPlan,
} from './spend-reservation';
import { countTokens as wholeCount } from 'gpt-tokenizer/encoding/cl100k_base';
import { countPromptTokens, countTokens, loadedTokenizer, loadTokenizer, promptText } from './tokens';

// What a spend-limited call reserves before it is forwarded (contract 5a): each term of the most
// it can cost (per call, prompt tokens, output bound, choices, fallbacks) checked on its own, with
// a token counter of the test's own (one token a character) unless the real one is the subject.

const perChar = (text: string) => text.length;
const PLAN: TPlanLimits = {
  planId: 'p',
  quotaCallsMonth: 1000,
  rateLimitPerMinute: 100,
  tokensPerMinute: null,
  hasCard: true,
  spendLimitMinor: 500,
  spendLimitSetAt: 1,
};
const KEY: TKeyAuth = {
  kind: 'key',
  keyId: 'k',
  accountId: 'caller',
  scopes: [],
  expiresAt: null,
  routes: null,
  monthlyCalls: null,
  tokensPerMinute: null,
  monthlySpendMinor: null,
  allowedOrigins: new Set(),
  tools: null,
  toolsReadOnly: false,
};

function price(per_call: number, input = 0, output = 0): TPrice {
  return { per_call, per_1m_input_tokens: input, per_1m_output_tokens: output };
}

function route(name: string, over: Partial<TRouteEntry> = {}): TRouteEntry {
  return {
    endpointId: `ep-${name}`,
    accountId: 'owner',
    routeName: name,
    isPublic: true,
    isActive: true,
    price: price(10),
    routing: null,
    ...over,
  } as never;
}

function withFallbacks(entry: TRouteEntry, fallbacks: string[]): TRouteEntry {
  return { ...entry, routing: { fallbacks } } as never;
}

function reservation(
  routes: Record<string, TRouteEntry | null> = {},
  answer?: TSpendAnswer | Promise<TSpendAnswer>,
) {
  const loaded: string[] = [];
  const reserved: [TSpendLimits, number][] = [];
  const peeked = new Set<string>();
  const directory = {
    routes: {
      peek: (name: string) => (peeked.has(name) ? routes[name] : undefined),
      load: async (name: string) => {
        loaded.push(name);
        peeked.add(name);
        if (routes[name] === undefined) throw new Error('no such route');
        return routes[name];
      },
    },
  };
  const counters = {
    reserveSpend(limits: TSpendLimits, picos: number) {
      reserved.push([limits, picos]);
      return (
        answer ?? { period: '2026-11', parts: limits.parts, reservedNanos: picos, shared: false, holder: '' }
      );
    },
  };
  const spend = createSpendReservation(counters as never, directory as never);
  return { spend, loaded, reserved, peeked };
}

const body = (value: unknown) => Buffer.from(JSON.stringify(value));

function planOf(
  spend: ReturnType<typeof createSpendReservation>,
  entry: TRouteEntry,
  request: unknown,
  options: { key?: TKeyAuth; limits?: TPlanLimits; field?: 'max_tokens' | 'max_output_tokens' | null } = {},
) {
  const raw = typeof request === 'string' ? Buffer.from(request) : body(request);
  return spend.plan(
    options.key ?? KEY,
    entry,
    options.limits ?? PLAN,
    raw,
    objectStart(raw),
    null,
    options.field === undefined ? 'max_tokens' : options.field,
  );
}

describe("a call's output bound", () => {
  it("is the caller's larger of max_completion_tokens and max_tokens, when they are counts", () => {
    expect(callerMaxTokens({})).toBeNull();
    expect(callerMaxTokens({ max_tokens: 5 })).toBe(5);
    expect(callerMaxTokens({ max_completion_tokens: 7 })).toBe(7);
    expect(callerMaxTokens({ max_tokens: 5, max_completion_tokens: 7 })).toBe(7);
    expect(callerMaxTokens({ max_tokens: 9, max_completion_tokens: 7 })).toBe(9);
    for (const bad of [0, -1, 1.5, '10', null, 2 ** 53])
      expect(callerMaxTokens({ max_tokens: bad, max_completion_tokens: bad })).toBeNull();
    expect(callerMaxTokens({ max_tokens: 1 })).toBe(1);
    // The chat field's bound reads both names; another protocol's field only its own.
    const raw = body({ max_completion_tokens: 7 });
    expect(outputBound({ max_completion_tokens: 7 }, raw, 0, 'max_tokens')).toEqual({
      tokens: 7,
      bound: null,
    });
  });

  it("times the choices asked for; without the caller's, the gateway's bound set on the body", () => {
    const request = { model: 'm', n: 3 };
    const raw = body(request);
    expect(outputBound({ max_tokens: 10, n: 3 }, raw, 0, 'max_tokens')).toEqual({ tokens: 30, bound: null });
    expect(outputBound({ max_tokens: 10, n: 2, best_of: 4 }, raw, 0, 'max_tokens').tokens).toBe(40);
    expect(outputBound({ max_tokens: 10, n: 0, best_of: 'x' }, raw, 0, 'max_tokens').tokens).toBe(10);
    const bounded = outputBound(request, raw, objectStart(raw), 'max_tokens');
    expect(bounded.tokens).toBe(DEFAULT_MAX_OUTPUT_TOKENS * 3);
    expect(JSON.parse(applyEdits(raw, bounded.bound!).toString())).toEqual({ ...request, max_tokens: 4096 });
    // A bad max_tokens of the caller's is replaced, not doubled.
    const bad = body({ model: 'm', max_tokens: 'lots' });
    const replaced = outputBound({ model: 'm', max_tokens: 'lots' }, bad, objectStart(bad), 'max_tokens');
    expect(JSON.parse(applyEdits(bad, replaced.bound!).toString())).toEqual({ model: 'm', max_tokens: 4096 });
    // The Responses API's field: max_output_tokens (max_tokens there is not its bound).
    const responses = body({ input: 'hi', max_tokens: 5 });
    const own = outputBound({ input: 'hi', max_output_tokens: 6 }, responses, 0, 'max_output_tokens');
    expect(own).toEqual({ tokens: 6, bound: null });
    const set = outputBound(
      { input: 'hi', max_tokens: 5 },
      responses,
      objectStart(responses),
      'max_output_tokens',
    );
    expect(set.tokens).toBe(4096);
    expect(JSON.parse(applyEdits(responses, set.bound!).toString())).toEqual({
      input: 'hi',
      max_tokens: 5,
      max_output_tokens: 4096,
    });
    // An empty object has nothing to answer: no edit.
    expect(outputBound({}, Buffer.from('{}'), 0, 'max_tokens')).toEqual({ tokens: 4096, bound: null });
  });
});

describe("a call's prompt tokens", () => {
  it('count the messages, completions prompts and embeddings inputs, with the chat overhead', () => {
    expect(promptTokens({}, perChar)).toBe(0);
    // Two messages: "ab\ncd" (5) + 2 × 4 + 3.
    expect(promptTokens({ messages: [{ content: 'ab' }, { content: [{ text: 'cd' }] }] }, perChar)).toBe(16);
    expect(promptTokens({ messages: [] }, perChar)).toBe(0);
    // "" (no messages) + "\n" + "hello".
    expect(promptTokens({ prompt: 'hello' }, perChar)).toBe(6);
    expect(promptTokens({ input: ['ab', 3, 'cd'] }, perChar)).toBe(6);
    expect(promptTokens({ prompt: ['x'], input: 'yz' }, perChar)).toBe(5);
    expect(promptTokens({ prompt: 5 }, perChar)).toBe(0);
  });

  it('past 16,384 characters count the rest by its UTF-8 bytes', () => {
    const head = 'a'.repeat(16_384);
    expect(promptTokens({ prompt: head.slice(1) }, perChar)).toBe(16_384);
    expect(promptTokens({ prompt: `${head.slice(1)}é` }, perChar)).toBe(16_384 + 2);
    expect(promptTokens({ prompt: `${head.slice(1)}éé` }, perChar)).toBe(16_384 + 4);
    // A long chat prompt keeps its per-message overhead.
    const long = { messages: [{ content: head }, { content: 'é' }] };
    expect(promptTokens(long, perChar)).toBe(16_384 + 3 + 2 * 4 + 3);
    // "\n" + head: the counted slice ends one character early; that "a" is 1 byte.
    expect(promptTokens({ prompt: `${head}ééé` }, () => 0)).toBe(7);
  });

  it('read only the text of messages and parts, whatever else a caller sends', () => {
    const messages = [
      null,
      { content: 5 },
      { content: { text: 'no' } },
      { content: [null, { text: 5 }, { text: 'x' }] },
      { content: 'y' },
    ];
    expect(promptText({ messages })).toBe('x\ny');
    expect(promptText({ messages: 'hi' })).toBe('');
  });

  it("are counted by the real tokenizer in slices that give the whole text's count, special tokens as text", async () => {
    const count = await loadTokenizer();
    expect(loadedTokenizer()).toBe(count);
    const words = 'the quick brown fox jumps over a lazy dog '.repeat(200).slice(0, 7000);
    expect(count(words)).toBe(wholeCount(words));
    expect(await countTokens('hello world')).toBe(wholeCount('hello world'));
    expect(count('say <|endoftext|> now')).toBeGreaterThan(3);
    expect(await countPromptTokens({ messages: [{ content: words }] })).toBe(wholeCount(words));
  });

  it('with the real tokenizer, a long prompt is never counted below its true count', async () => {
    const count = await loadTokenizer();
    const text = 'the quick brown fox '.repeat(2000);
    expect(promptTokens({ prompt: text }, count)).toBeGreaterThanOrEqual(count(`\n${text}`));
  });
});

describe('what a spend-limited call reserves', () => {
  it('is nothing without a spend limit or a key budget, or on a free or own route', async () => {
    const { spend, reserved } = reservation();
    const free = { ...PLAN, spendLimitMinor: null, spendLimitSetAt: null };
    expect(await planOf(spend, route('r'), {}, { limits: free })).toBeNull();
    // A limit not named by its save time is no limit.
    expect(await planOf(spend, route('r'), {}, { limits: { ...PLAN, spendLimitSetAt: null } })).toBeNull();
    expect(await planOf(spend, route('r', { price: null }), {})).toBeNull();
    expect(await planOf(spend, route('r', { accountId: 'caller' }), {})).toBeNull();
    expect(await planOf(spend, route('r', { isActive: false }), {})).toBeNull();
    expect(reserved).toEqual([]);
  });

  it('is the per-call price alone when no token is priced, with no parse of the body', async () => {
    const { spend } = reservation();
    const plan = (await planOf(spend, route('r', { price: price(10) }), 'not json')) as TSpendPlan;
    expect(plan).toEqual({
      picos: 10_000_000,
      bound: null,
      limits: { parts: [{ kind: 'account', id: 'caller', limitMinor: 500, setAt: 1 }] },
    });
    // A key's budget alone is a limit too.
    const budgeted = { ...KEY, monthlySpendMinor: 50 };
    const keyOnly = await planOf(
      spend,
      route('r'),
      {},
      { key: budgeted, limits: { ...PLAN, spendLimitMinor: null } },
    );
    expect(keyOnly).toMatchObject({ limits: { parts: [{ kind: 'key', id: 'caller:k', limitMinor: 50 }] } });
  });

  it('adds the output bound at the output rate, and the prompt at the input rate', async () => {
    const { spend } = reservation();
    const byOutput = route('r', { price: price(1, 0, 2_000_000) });
    expect(await planOf(spend, byOutput, { max_tokens: 5, n: 2 })).toMatchObject({
      picos: 1_000_000 + 10 * 2_000_000,
      bound: null,
    });
    const bounded = (await planOf(spend, byOutput, { model: 'm' })) as TSpendPlan;
    expect(bounded.picos).toBe(1_000_000 + 4096 * 2_000_000);
    expect(bounded.bound).not.toBeNull();
    // An upstream protocol with no output: only the call and the prompt.
    expect(await planOf(spend, byOutput, { model: 'm' }, { field: null })).toMatchObject({
      picos: 1_000_000,
      bound: null,
    });
    expect(await planOf(spend, byOutput, '[1]')).toBe('invalid');
    const count = await loadTokenizer();
    const byInput = route('r', { price: price(0, 3, 0) });
    const messages = [{ role: 'user', content: 'hello there' }];
    expect(await planOf(spend, byInput, { messages, max_tokens: 10 })).toEqual({
      picos: 3 * (count('hello there') + 4 + 3),
      bound: null,
      limits: expect.anything(),
    });
    expect(await planOf(spend, byInput, 'nope')).toBe('invalid');
    const both = route('r', { price: price(0, 3, 7) });
    expect(await planOf(spend, both, { messages, max_tokens: 10 })).toMatchObject({
      picos: 3 * (count('hello there') + 7) + 7 * 10,
    });
  });

  it('counts the prompt or the output when any chargeable price has a token rate', async () => {
    const count = await loadTokenizer();
    const messages = [{ role: 'user', content: 'hello there' }];
    const byInput = reservation({ fb: route('fb', { price: price(0, 1_000_000, 0) }) });
    byInput.peeked.add('fb');
    const main = withFallbacks(route('main', { price: price(1) }), ['fb']);
    const input = byInput.spend.plan(KEY, main, PLAN, body({ messages }), 0, null);
    // The tokenizer is loaded: answered at once.
    expect(input).not.toBeInstanceOf(Promise);
    expect(input).toMatchObject({ picos: 1_000_000 * (count('hello there') + 7) });
    const byOutput = reservation({ fb: route('fb', { price: price(0, 0, 1_000_000) }) });
    byOutput.peeked.add('fb');
    // The default protocol field is max_tokens.
    expect(byOutput.spend.plan(KEY, main, PLAN, body({ max_tokens: 10 }), 0, null)).toMatchObject({
      picos: 10_000_000,
    });
  });

  it('is the dearest of the route and the fallbacks the key may reach, looked up once when not cached', async () => {
    const dear = route('dear', { price: price(50) });
    const hidden = route('hidden', { price: price(900), isPublic: false });
    const { spend, loaded } = reservation({ dear, hidden, gone: null });
    const main = withFallbacks(route('main', { price: price(10) }), ['dear', 'hidden', 'gone', 'missing']);
    const first = planOf(spend, main, {});
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ picos: 50_000_000 });
    expect(loaded.sort()).toEqual(['dear', 'gone', 'hidden', 'missing']);
    // A key restricted to the main route is never charged at a fallback's price.
    const restricted = { ...KEY, routes: new Set(['main']) };
    const onlyMain = reservation({ dear });
    expect(
      await planOf(onlyMain.spend, withFallbacks(route('main'), ['dear']), {}, { key: restricted }),
    ).toMatchObject({
      picos: 10_000_000,
    });
    // Cached: answered without waiting.
    const cached = reservation({ dear });
    cached.peeked.add('dear');
    const plan = planOf(cached.spend, withFallbacks(route('main'), ['dear']), {});
    expect(plan).not.toBeInstanceOf(Promise);
    expect(plan).toMatchObject({ picos: 50_000_000 });
    expect(cached.loaded).toEqual([]);
    // A free route with a priced fallback the key cannot reach still holds its limits (a 0 reservation).
    const freeMain = withFallbacks(route('main', { price: null }), ['hidden']);
    const { spend: freeSpend } = reservation({ hidden });
    expect(await planOf(freeSpend, freeMain, {})).toMatchObject({ picos: 0, bound: null });
    expect(
      await planOf(freeSpend, route('main', { price: null, routing: { fallbacks: [] } as never }), {}),
    ).toBeNull();
  });

  it('caps the most a call can cost at the largest safe integer', async () => {
    const { spend } = reservation();
    const huge = route('r', { price: price(0, 0, 1e15) });
    expect(await planOf(spend, huge, { max_tokens: 2 ** 40 })).toMatchObject({
      picos: Number.MAX_SAFE_INTEGER,
    });
  });

  it('reserves the plan from the counters, refusing with the limit it did not fit', async () => {
    const plan: TSpendPlan = { picos: 7, bound: null, limits: { parts: [] } };
    const taken = reservation();
    expect(taken.spend.reserve(plan)).toMatchObject({ reservedNanos: 7 });
    expect(taken.reserved).toEqual([[plan.limits, 7]]);
    expect(reservation({}, { refused: 'key' }).spend.reserve(plan)).toBe('key_budget_exceeded');
    expect(reservation({}, { refused: 'account' }).spend.reserve(plan)).toBe('spend_limit_reached');
    expect(await reservation({}, Promise.resolve({ refused: 'account' })).spend.reserve(plan)).toBe(
      'spend_limit_reached',
    );
  });
});
