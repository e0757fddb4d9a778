/*
 * The units money is counted in (contract 5a, decision 043). The billing currency has two
 * decimals (its minor unit is a hundredth of the main unit, as billing/charge.ts prints it).
 *
 * - Prices: integer micros, millionths of the main unit (2000 = 0.002).
 * - Costs: integer picos, millionths of a micro (1e-12 of the main unit). A token's price is a
 *   per-million price, so `tokens x per-million micros` is exactly a number of picos: every call's
 *   cost is an integer, never rounded.
 * - Limits, invoice lines, fees and earnings: minor units, each line rounded once from its picos.
 *
 * - Spend counters (the gateway's reservation and settlement against a spend limit): integer
 *   nanos (1e-9 of the main unit). A reservation and a cost are rounded up from picos to nanos for
 *   the counters only, so enforcement may be stricter than exact by under 1 nano a call; documents
 *   sum exact picos and round once per line.
 *
 * Caps that keep every exact figure a safe integer (2^53 - 1 ~ 9.007e15): a price part is at most
 * PRICE_MAX_MICROS (1,000 main units), a call is billed for at most MAX_BILLED_TOKENS prompt and
 * as many completion tokens, so one call costs at most 1e9 x 1e6 + 2 x 2e6 x 1e9 = 5e15 picos; a
 * spend limit is at most SPEND_LIMIT_MAX_MINOR (1,000,000 main units = 1e15 nanos), so a counter
 * never passes a safe integer. Sums over many calls (a period's spend, an invoice line) are added
 * by the database as integers and rounded here with BigInt, so they have no cap.
 */

export const MICROS_PER_MAIN = 1_000_000;
export const MINOR_PER_MAIN = 100;
export const MICROS_PER_MINOR = MICROS_PER_MAIN / MINOR_PER_MAIN;
export const PICOS_PER_MICRO = 1_000_000;
export const PICOS_PER_MINOR = MICROS_PER_MINOR * PICOS_PER_MICRO;
export const PICOS_PER_NANO = 1_000;
export const NANOS_PER_MINOR = PICOS_PER_MINOR / PICOS_PER_NANO;

/**
 * The most tokens of each kind one call is billed for: more than any model's context holds today
 * (2M); past it an upstream's figure is not believed (it would pass a safe integer).
 */
export const MAX_BILLED_TOKENS = 2_000_000;
