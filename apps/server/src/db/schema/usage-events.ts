import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * One row per gateway call, written in batches off the request path. No column has a foreign key,
 * so metering never blocks on a concurrent delete and never fails a batch for it: a closed
 * account's calls still in flight are left out by the insert itself (modules/usage/metering.ts), and
 * closing an account deletes its rows (modules/account/close.ts). A foreign key also doubled the
 * embedded database's cost per row (40 against 20 µs, a per-row check and row lock on accounts).
 * No request or answer body is ever stored. Every insert also adds to `usage_daily` (a statement
 * trigger, see usage-daily.ts).
 */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    callerAccountId: uuid('caller_account_id').notNull(),
    keyId: uuid('key_id'),
    endpointId: uuid('endpoint_id'),
    providerAccountId: uuid('provider_account_id'),
    status: integer('status').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** A streamed answer's first body bytes to the caller, ms after the request came in; null otherwise. */
    firstByteMs: integer('first_byte_ms'),
    /**
     * When the gateway counted the call against the caller's quota (its admission); null for a
     * refused call and for rows from before the column. A counter seeded again after a loss is
     * corrected by the calls counted before the loss (decision 049).
     */
    admittedAt: timestamp('admitted_at', { withTimezone: true }),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    /** The tokens were estimated by the gateway (the upstream reported none). */
    tokensEstimated: boolean('tokens_estimated').notNull().default(false),
    /** The answer was a `text/event-stream`. */
    streamed: boolean('streamed').notNull().default(false),
    /** The gateway's own error code when it answered instead of the upstream (or `client_closed`). */
    errorCode: text('error_code'),
    /**
     * What the call costs the caller, in picos (1e-12 of the currency's main unit; exact: per_call
     * micros x 1e6 plus tokens x per-million micros, modules/money), worked out when it is metered;
     * null when it is free (an unpriced route, the provider's own call, a cache hit, an answer
     * that was not 2xx).
     */
    costPicos: bigint('cost_picos', { mode: 'number' }),
    /** The price the cost used (micros), as the route had it when the call was metered. */
    pricePerCall: integer('price_per_call'),
    pricePer1mInput: integer('price_per_1m_input'),
    pricePer1mOutput: integer('price_per_1m_output'),
    /** The marketplace charge (invoice line) that billed this call; null until its renewal. */
    chargeId: uuid('charge_id'),
    /** Upstream calls made for this caller request (retries and fallbacks included); 0 on a cache hit. */
    attempts: smallint('attempts').notNull().default(1),
    /** Answered from the gateway's cache: counts against the caller's quota, earns the provider nothing. */
    cacheHit: boolean('cache_hit').notNull().default(false),
    /** An MCP call's tool (`tools/call`, contract 6d); null on every other call. */
    tool: text('tool'),
    /** An MCP tool call's answer size in bytes as the upstream sent it; null on every other call. */
    bytes: integer('bytes'),
    /**
     * The API the caller spoke (`openai`, or `anthropic` on `/v1/messages`) and the one of the
     * upstream that answered (`openai`, `anthropic`, `gemini`; decision 058); null where there is
     * none (an MCP call, a call refused before it reached a route, a cache hit's upstream).
     */
    clientFormat: text('client_format'),
    upstreamFormat: text('upstream_format'),
    /** A fallback's call: the endpoint the caller asked for (endpoint_id is the one that answered); null otherwise. */
    requestedEndpointId: uuid('requested_endpoint_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('usage_events_caller_created_idx').on(t.callerAccountId, t.createdAt),
    index('usage_events_provider_created_idx').on(t.providerAccountId, t.createdAt),
    // The priced calls not billed yet, per caller: what a renewal bills and the spend so far.
    index('usage_events_unbilled_idx')
      .on(t.callerAccountId, t.createdAt)
      .where(sql`${t.costPicos} is not null and ${t.chargeId} is null`),
    // The same calls per provider: what a provider has accrued, not invoiced yet (payouts page).
    index('usage_events_provider_unbilled_idx')
      .on(t.providerAccountId)
      .where(sql`${t.costPicos} is not null and ${t.chargeId} is null`),
  ],
);
