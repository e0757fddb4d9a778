import { z } from 'zod';

/**
 * A marketplace price (contract 5a), each part in minor units of the billing currency (integers,
 * 0 or more): per call, and per million prompt (input) and completion (output) tokens. The caps
 * keep one call's exact cost (millionths of a minor unit) well inside a safe integer.
 */
export const PRICE_MAX_MINOR = 1_000_000;

const ZPricePart = z.number().int().min(0).max(PRICE_MAX_MINOR);

export const ZPrice = z.strictObject({
  per_call: ZPricePart,
  per_1m_input_tokens: ZPricePart,
  per_1m_output_tokens: ZPricePart,
});
export type TPrice = z.infer<typeof ZPrice>;

/** Millionths of a minor unit in one minor unit: the exact cost's scale. */
export const MICROS_PER_MINOR = 1_000_000;

/**
 * One call's exact cost in millionths of a minor unit: per_call x 1e6 plus each token count x its
 * per-million price (tokens x price / 1e6 minor units = tokens x price millionths). Never rounded;
 * a bill rounds each line's sum once.
 */
export function costMicros(
  price: TPrice,
  promptTokens: number | null,
  completionTokens: number | null,
): number {
  return (
    price.per_call * MICROS_PER_MINOR +
    (promptTokens ?? 0) * price.per_1m_input_tokens +
    (completionTokens ?? 0) * price.per_1m_output_tokens
  );
}

/** Millionths rounded once to the minor unit, half up (what an invoice line shows). */
export function microsToMinor(micros: number): number {
  return Math.floor((micros + MICROS_PER_MINOR / 2) / MICROS_PER_MINOR);
}
