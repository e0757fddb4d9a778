import type { TPrice } from '@air/shared/schemas/price';
import { MAX_BILLED_TOKENS, PICOS_PER_MICRO } from './units';

/** Billed tokens: none when unknown, at most MAX_BILLED_TOKENS (units.ts). */
function billed(tokens: number | null): number {
  if (tokens === null || tokens <= 0) return 0;
  return tokens < MAX_BILLED_TOKENS ? tokens : MAX_BILLED_TOKENS;
}

/**
 * One call's exact cost in picos: per_call micros x 1e6, plus each token count x its per-million
 * price in micros (tokens x micros / 1e6 micros = tokens x micros picos). Never rounded; an
 * invoice line rounds its sum once (round.ts).
 */
export function callCostPicos(
  price: TPrice,
  promptTokens: number | null,
  completionTokens: number | null,
): number {
  return (
    price.per_call * PICOS_PER_MICRO +
    billed(promptTokens) * price.per_1m_input_tokens +
    billed(completionTokens) * price.per_1m_output_tokens
  );
}

/** Status 499 of a caller who left a stream after it began (gateway/upstream.ts). */
const CLIENT_CLOSED = 499;

/** What of a metered call decides its charge (the usage row's fields). */
export interface TChargeable {
  price?: TPrice | null;
  status: number;
  cacheHit: boolean;
  promptTokens: number | null;
  completionTokens: number | null;
  streamed: boolean;
  /** The most it may be charged (picos), when a spend limit or key budget capped it. */
  costCapPicos?: number | null;
}

/**
 * What a metered call costs its caller, in picos (contract 5a), or null when it is free: no price
 * (an unpriced route, the provider's own call), a cache hit, or an answer that was not a success
 * (2xx). A stream the caller left (499) after its 2xx answer began costs what was generated: its
 * tokens are known (the upstream's usage, or counted) only when it began.
 */
export function chargedPicos(row: TChargeable): number | null {
  if (!row.price || row.cacheHit) return null;
  if ((row.status < 200 || row.status >= 300) && !isLeftStream(row)) return null;
  const cost = callCostPicos(row.price, row.promptTokens, row.completionTokens);
  // Capped by the caller's spend limit or key budget (settle.ts): never charged past them.
  return row.costCapPicos == null ? cost : Math.min(cost, row.costCapPicos);
}

/** A stream the caller left once its 2xx answer had begun: the only 499 that carries tokens. */
function isLeftStream(row: TChargeable): boolean {
  return row.status === CLIENT_CLOSED && row.streamed && row.completionTokens !== null;
}
