import type { TPrice } from '@air/shared/schemas/price';
import { callCostPicos } from '../modules/money/service';
import type { TKeyAuth } from '../core/credentials';
import type { TCallCounters } from './counter-types';
import type { TDirectory, TPlanLimits, TRouteEntry } from './directory';
import { mayCall, parseObject } from './call-outcome';
import { setMember, type TBodyEdit } from './body-edit';
import {
  isSpendRefusal,
  spendLimitsOf,
  type TSpendAnswer,
  type TSpendLimits,
  type TSpendTicket,
} from './spend';
import { loadedTokenizer, loadTokenizer, promptText, type TTokenCounter } from './tokens';

/*
 * What a spend-limited caller's priced call reserves before it is forwarded (contract 5a): the
 * most it can cost, so a burst cannot deliver answers the limit does not pay for. That is the
 * per-call price, the prompt's tokens counted from the body, and the output the upstream may
 * generate: the caller's `max_tokens` (or `max_completion_tokens`), else a bound the gateway puts
 * on the upstream request, times the choices asked for (`n`). The reservation is settled to the
 * real cost when the call ends (spend.ts); the cap there stays as a safety net for what no body
 * can bound (an upstream that ignores `max_tokens`, a tokenizer that counts more than ours).
 *
 * A call that does not need it is not touched: no limit, or no priced route, costs no parse, no
 * token count and no await here.
 */

/**
 * The output bound the gateway sets (`max_tokens` in the upstream body) when the caller gave none
 * and the call is charged by output tokens under a spend limit: without one, the most a call can
 * cost is unbounded. Callers who need longer answers set their own `max_tokens`.
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/**
 * Prompt text past this many characters is reserved by its UTF-8 bytes (a byte-level tokenizer
 * never makes more tokens than bytes) rather than counted: counting costs up to ~2 ms a KB on text
 * built to defeat the tokenizer, and a 1 MB body must not hold the event loop that long.
 */
const COUNTED_PROMPT_CHARS = 16_384;

/** Chat formatting the upstream counts as prompt tokens: per message, and priming the reply. */
const TOKENS_PER_MESSAGE = 4;
const TOKENS_PER_PROMPT = 3;

/** What a call reserves (picos, modules/money), the limits it is under, and the bound to put on its upstream body. */
export interface TSpendPlan {
  picos: number;
  bound: TBodyEdit[] | null;
  limits: TSpendLimits;
}

/** The output tokens a call may generate, and the bound the gateway puts on its body (or null). */
export interface TOutputBound {
  tokens: number;
  bound: TBodyEdit[] | null;
}

type TPlanned = TSpendPlan | null | 'invalid';

/** The prices a call may be charged at: its route's, and each fallback's the key may fall to. */
function chargeablePrices(key: TKeyAuth, routes: readonly (TRouteEntry | null | undefined)[]): TPrice[] {
  const prices: TPrice[] = [];
  for (const route of routes) {
    if (mayCall(key, route) && route.price !== null && route.accountId !== key.accountId)
      prices.push(route.price);
  }
  return prices;
}

/** A positive integer count from the body, else null (absent, null or not a count). */
function countOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The caller's own output bound: the larger of `max_completion_tokens` and `max_tokens`. */
export function callerMaxTokens(parsed: Record<string, unknown>): number | null {
  const completion = countOf(parsed.max_completion_tokens);
  const legacy = countOf(parsed.max_tokens);
  if (completion === null) return legacy;
  return legacy === null ? completion : Math.max(completion, legacy);
}

/** Answers generated for one call: `n` choices (`best_of` candidates on the completions API). */
function choicesOf(parsed: Record<string, unknown>): number {
  return Math.max(countOf(parsed.n) ?? 1, countOf(parsed.best_of) ?? 1);
}

/** The prompt's text: chat messages, and a completions `prompt` or embeddings `input`. */
function promptTexts(parsed: Record<string, unknown>): { text: string; messages: number } {
  const texts = [promptText(parsed)];
  for (const value of [parsed.prompt, parsed.input]) {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') texts.push(item);
  }
  const messages = Array.isArray(parsed.messages) ? parsed.messages.length : 0;
  return { text: texts.join('\n'), messages };
}

/** Prompt tokens, never fewer than the upstream's tokenizer is likely to count. */
export function promptTokens(parsed: Record<string, unknown>, count: TTokenCounter): number {
  const { text, messages } = promptTexts(parsed);
  const overhead = messages > 0 ? messages * TOKENS_PER_MESSAGE + TOKENS_PER_PROMPT : 0;
  if (text.length <= COUNTED_PROMPT_CHARS) return count(text) + overhead;
  const rest = Buffer.byteLength(text.slice(COUNTED_PROMPT_CHARS));
  return count(text.slice(0, COUNTED_PROMPT_CHARS)) + rest + overhead;
}

/** The most one call can cost at the dearest of `prices`, in safe integers (past them: refused). */
function mostCost(prices: readonly TPrice[], prompt: number, output: number): number {
  let most = 0;
  for (const price of prices) most = Math.max(most, callCostPicos(price, prompt, output));
  return Math.min(most, Number.MAX_SAFE_INTEGER);
}

/** The refusal of a reservation that does not fit, by the limit it would pass. */
export type TSpendRefused = 'key_budget_exceeded' | 'spend_limit_reached';

function refusedAs(answer: TSpendAnswer): TSpendTicket | TSpendRefused {
  if (!isSpendRefusal(answer)) return answer;
  return answer.refused === 'key' ? 'key_budget_exceeded' : 'spend_limit_reached';
}

/** The body field a protocol bounds its output with (protocols.ts), or null when it has none. */
export type TOutputField = 'max_tokens' | 'max_output_tokens' | null;

/**
 * The output tokens reserved: the caller's bound, else the gateway's, set on the upstream body
 * (an empty object gets none: it has nothing to answer, and the edit would need a comma).
 */
export function outputBound(
  parsed: Record<string, unknown>,
  body: Buffer,
  start: number,
  field: 'max_tokens' | 'max_output_tokens',
): TOutputBound {
  const choices = choicesOf(parsed);
  const own = field === 'max_tokens' ? callerMaxTokens(parsed) : countOf(parsed[field]);
  if (own !== null) return { tokens: own * choices, bound: null };
  const keys = Object.keys(parsed);
  const bound =
    keys.length === 0
      ? null
      : setMember(body, start, field, String(DEFAULT_MAX_OUTPUT_TOKENS), !keys.includes(field));
  return { tokens: DEFAULT_MAX_OUTPUT_TOKENS * choices, bound };
}

export function createSpendReservation(counters: TCallCounters, directory: TDirectory) {
  /**
   * The fallbacks the call may fall to, looked up now when they are not cached yet (the first
   * call only): a priced fallback is covered by the reservation, so the call cannot fall to a
   * route its reservation does not pay for. One that cannot be looked up is left out (the call
   * skips it too, unless it can be looked up by then: the cap at settlement bounds that case).
   */
  function fallbackRoutes(
    route: TRouteEntry,
  ): (TRouteEntry | null | undefined)[] | Promise<(TRouteEntry | null)[]> {
    const names = route.routing?.fallbacks ?? [];
    const entries = names.map((name) => directory.routes.peek(name));
    if (!entries.includes(undefined)) return entries;
    return Promise.all(names.map((name, i) => entries[i] ?? directory.routes.load(name).catch(() => null)));
  }

  /**
   * What the call reserves: null when nothing (no spend limit, or no price it may be charged),
   * 'invalid' when its body must be read for tokens and is no JSON object.
   */
  function plan(
    key: TKeyAuth,
    route: TRouteEntry,
    limits: TPlanLimits,
    body: Buffer,
    start: number,
    parsed: Record<string, unknown> | null,
    /** The body field that bounds the output in the call's protocol; null: it has no output. */
    outputField: TOutputField = 'max_tokens',
    /** A model call's other providers (contract 5b): its fallbacks instead of the route's own. */
    candidates?: readonly TRouteEntry[],
  ): TPlanned | Promise<TPlanned> {
    if (limits.spendLimitMinor === null && key.monthlySpendMinor === null) return null;
    const account = { limitMinor: limits.spendLimitMinor, setAt: limits.spendLimitSetAt };
    const spend = spendLimitsOf(key.accountId, key.keyId, account, key.monthlySpendMinor);
    if (spend === null) return null;
    const fallbacks = candidates ?? (route.routing?.fallbacks.length ? fallbackRoutes(route) : []);
    const call = { body, start, parsed, outputField, spend };
    if (fallbacks instanceof Promise) return fallbacks.then((routes) => planFor(key, route, routes, call));
    return planFor(key, route, fallbacks, call);
  }

  function planFor(
    key: TKeyAuth,
    route: TRouteEntry,
    fallbacks: readonly (TRouteEntry | null | undefined)[],
    call: {
      body: Buffer;
      start: number;
      parsed: Record<string, unknown> | null;
      outputField: TOutputField;
      spend: TSpendLimits;
    },
  ): TPlanned | Promise<TPlanned> {
    const { body, start, outputField, spend } = call;
    let parsed = call.parsed;
    const prices = chargeablePrices(key, [route, ...fallbacks]);
    if (prices.length === 0) {
      // A free route whose fallbacks are free too: reserves nothing, but its charge stays capped
      // should a fallback be priced by the time it is called.
      return fallbacks.length > 0 ? { picos: 0, bound: null, limits: spend } : null;
    }
    const byInput = prices.some((price) => price.per_1m_input_tokens > 0);
    const byOutput = prices.some((price) => price.per_1m_output_tokens > 0);
    if (!byInput && !byOutput) return { picos: mostCost(prices, 0, 0), bound: null, limits: spend };
    parsed ??= parseObject(body);
    if (!parsed) return 'invalid';
    const request = parsed;
    const output =
      byOutput && outputField !== null
        ? outputBound(request, body, start, outputField)
        : { tokens: 0, bound: null };
    if (!byInput) return { picos: mostCost(prices, 0, output.tokens), bound: output.bound, limits: spend };
    const finish = (count: TTokenCounter): TSpendPlan => ({
      picos: mostCost(prices, promptTokens(request, count), output.tokens),
      bound: output.bound,
      limits: spend,
    });
    // The tokenizer is loaded by the first call that needs it, and kept.
    const count = loadedTokenizer();
    return count ? finish(count) : loadTokenizer().then(finish);
  }

  /**
   * Takes the plan's reservation from every limit in money the call is under: a ticket, or the
   * refusal's code (the key's budget, or the account's spend limit).
   */
  function reserve(plan: TSpendPlan): TSpendTicket | TSpendRefused | Promise<TSpendTicket | TSpendRefused> {
    const answer = counters.reserveSpend(plan.limits, plan.picos);
    if (answer instanceof Promise) return answer.then(refusedAs);
    return refusedAs(answer);
  }

  return { plan, reserve };
}
