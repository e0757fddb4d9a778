import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TApiProtocol, TEndpointProtocol, TRoutingConfig } from '@air/shared/schemas/aiendpoint';
import { accounts } from './accounts';

export const routeTypeEnum = pgEnum('route_type', ['agent', 'model', 'datasource']);

/**
 * A registered AI endpoint. `route_name` is unique across all accounts. Upstream headers are
 * sealed with SECRET (`upstream_headers_enc`) and never returned in full.
 */
export const aiEndpoints = pgTable(
  'ai_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    routeName: text('route_name').notNull(),
    routeEndpoint: text('route_endpoint').notNull(),
    routeType: routeTypeEnum('route_type').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    isPrivate: boolean('is_private').notNull().default(true),
    isShared: boolean('is_shared').notNull().default(false),
    description: text('description').notNull().default(''),
    upstreamModel: text('upstream_model'),
    upstreamTimeoutMs: integer('upstream_timeout_ms'),
    upstreamHeadersEnc: text('upstream_headers_enc'),
    /** The owner lets OpenTelemetry spans carry this endpoint's prompts and answers (off by default). */
    traceContent: boolean('trace_content').notNull().default(false),
    /** The OpenAI protocols it serves (contract 6c); null for every one its URL serves. */
    protocols: text('protocols').array().$type<TEndpointProtocol[]>(),
    /** `openai` (the default) or `mcp`: its URL is then an MCP server's Streamable HTTP address (contract 6d). */
    protocol: text('protocol').$type<TApiProtocol>().notNull().default('openai'),
    /** The model it serves, normalized (contract 5b): callers may name it instead of the route. */
    modelId: text('model_id'),
    /** An MCP endpoint's tools switched off by its owner (contract 6d), by name. */
    disabledTools: text('disabled_tools').array().notNull().default([]),
    /**
     * The marketplace price (contract 5a), micros of the billing currency: all three set, or
     * all null for free. Applies to calls from other accounts, from the next metered call.
     */
    pricePerCall: integer('price_per_call'),
    pricePer1mInput: integer('price_per_1m_input'),
    pricePer1mOutput: integer('price_per_1m_output'),
    /**
     * An MCP endpoint's per-tool prices (decision 063): tool name -> micros per call of that tool,
     * in place of `pricePerCall` for it; null when none.
     */
    toolPrices: jsonb('tool_prices').$type<Record<string, number>>(),
    /** Routing and resilience (contract 6a): upstreams, retry, fallbacks, circuit, cache; null when none is set. */
    routing: jsonb('routing').$type<TRoutingConfig>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ai_endpoints_route_name_unique').on(t.routeName),
    index('ai_endpoints_account_id_idx').on(t.accountId),
    index('ai_endpoints_shared_idx').on(t.isShared, t.isPrivate, t.isActive),
    index('ai_endpoints_model_id_idx').on(t.modelId),
  ],
);
