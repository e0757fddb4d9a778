import type { ServerResponse } from 'node:http';
import type { TKeyAuth } from '../core/credentials';
import type { TUsageRow } from '../modules/usage/service';
import type { TBodyEdit } from './body-edit';
import type { TPlanLimits } from './directory';
import { outputBound, promptTokens, type TOutputField } from './spend-reservation';
import { tokenLimitOf, type TTokenAnswer } from './token-limit';
import { loadedTokenizer, loadTokenizer, type TTokenCounter } from './tokens';

/*
 * What a token-limited key's call reserves before it is forwarded (contract 6e, token-limit.ts):
 * its prompt counted from the body with the tokenizer (spend-reservation.ts's `promptTokens`, the
 * count the spend reservation uses) plus the most it may generate: the caller's `max_tokens` (or
 * `max_completion_tokens`) times `n`, else the bound the gateway puts on the upstream body
 * (DEFAULT_MAX_OUTPUT_TOKENS). A key without a token limit costs nothing here.
 */

export interface TTokenPlan {
  /** The key's tokens per minute (the lower of the plan's and its own). */
  limit: number;
  tokens: number;
  bound: TBodyEdit[] | null;
}

type TPlanned = TTokenPlan | null | 'invalid';

/** The plan for one call: null when its key has no token limit, 'invalid' when the body is no object. */
export function planTokens(
  key: TKeyAuth,
  limits: TPlanLimits,
  call: { body: Buffer; start: number; parsed: Record<string, unknown> | null; outputField: TOutputField },
): TPlanned | Promise<TPlanned> {
  const limit = tokenLimitOf(limits.tokensPerMinute, key.tokensPerMinute);
  if (limit === null) return null;
  const parsed = call.parsed;
  if (!parsed) return 'invalid';
  const output =
    call.outputField === null
      ? { tokens: 0, bound: null }
      : outputBound(parsed, call.body, call.start, call.outputField);
  const finish = (count: TTokenCounter): TTokenPlan => ({
    limit,
    tokens: promptTokens(parsed, count) + output.tokens,
    bound: output.bound,
  });
  // The tokenizer is loaded by the first call that needs it, and kept.
  const count = loadedTokenizer();
  return count ? finish(count) : loadTokenizer().then(finish);
}

/** OpenAI's token rate headers, on the admitted call's answer or its refusal. */
export function setTokenHeaders(res: ServerResponse, answer: TTokenAnswer): void {
  res.setHeader('x-ratelimit-limit-tokens', String(answer.limit));
  res.setHeader('x-ratelimit-remaining-tokens', String(answer.remaining));
  res.setHeader('x-ratelimit-reset-tokens', `${Math.max(1, Math.ceil(answer.resetSeconds))}s`);
}

/**
 * The tokens a metered call used: the upstream's (or the tokenizer's, for a stream cut short)
 * prompt plus completion; an answer from the cache used none; a success that reported no usage is
 * counted at its reservation (the most it could use), a failure that reported none at nothing.
 */
export function tokensUsed(row: TUsageRow, reserved: number): number {
  if (row.cacheHit) return 0;
  if (row.promptTokens !== null || row.completionTokens !== null)
    return (row.promptTokens ?? 0) + (row.completionTokens ?? 0);
  return row.status >= 200 && row.status < 300 ? reserved : 0;
}
