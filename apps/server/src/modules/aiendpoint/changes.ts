import {
  PROTOCOL_MESSAGES,
  ROUTING_MESSAGES,
  type TRoutingConfig,
  type TUpdateAiEndpoint,
} from '@air/shared/schemas/aiendpoint';
import type { aiEndpoints } from '../../db/schema/ai-endpoints';
import { AppError } from '../../lib/app-error';
import { sanitizeRichText } from '../../lib/sanitize-html';
import { assertUpstreamAllowed } from '../../lib/upstream-address';
import { mergeHeaders, sealHeaders } from './headers';
import { callableModels } from './lookups';
import { openHeaders, type TEndpointRow } from './wire';
import type { TServices } from '../../core/services';

/*
 * An endpoint form's input turned into column changes (create and edit share it): each value
 * checked against its policy before anything is written.
 */

export type TEndpointChanges = Partial<typeof aiEndpoints.$inferInsert>;

/**
 * The column changes an input asks for, validated: the URL against the address policy, the
 * description sanitised, the headers merged into the stored ones and sealed.
 */
export async function changesFrom(
  app: TServices,
  input: TUpdateAiEndpoint,
  current?: TEndpointRow,
  accountId?: string,
): Promise<TEndpointChanges> {
  const changes: TEndpointChanges = {};
  if (accountId !== undefined) changes.accountId = accountId;
  if (input.name !== undefined) changes.name = input.name;
  if (input.route_name !== undefined) changes.routeName = input.route_name;
  if (input.route_type !== undefined) changes.routeType = input.route_type;
  if (input.isActive !== undefined) changes.isActive = input.isActive;
  if (input.isPrivate !== undefined) changes.isPrivate = input.isPrivate;
  if (input.isShared !== undefined) changes.isShared = input.isShared;
  if (input.protocols !== undefined) changes.protocols = input.protocols;
  if (input.protocol !== undefined) changes.protocol = input.protocol;
  if (input.model_id !== undefined) changes.modelId = input.model_id;
  if (input.disabled_tools !== undefined) changes.disabledTools = input.disabled_tools;
  if (input.route_endpoint !== undefined)
    changes.routeEndpoint = await assertUpstreamAllowed(
      input.route_endpoint,
      app.config.upstreamAllowPrivate,
    );
  const description = input.config?.description ?? input.description;
  if (description !== undefined) changes.description = sanitizeRichText(description);
  const config = input.config;
  if (config?.upstream_model !== undefined) changes.upstreamModel = config.upstream_model || null;
  if (config?.timeout_ms !== undefined) changes.upstreamTimeoutMs = config.timeout_ms;
  if (config?.trace_content !== undefined) changes.traceContent = config.trace_content;
  if (config?.price !== undefined) {
    const price = config.price;
    const free =
      !price || (price.per_call === 0 && price.per_1m_input_tokens === 0 && price.per_1m_output_tokens === 0);
    changes.pricePerCall = free ? null : price.per_call;
    changes.pricePer1mInput = free ? null : price.per_1m_input_tokens;
    changes.pricePer1mOutput = free ? null : price.per_1m_output_tokens;
  }
  if (config?.tool_prices !== undefined) {
    const prices = config.tool_prices;
    changes.toolPrices = prices && Object.keys(prices).length > 0 ? sortedPrices(prices) : null;
  }
  if (config?.headers !== undefined) {
    const stored = openHeaders(app.config.secret, current?.upstreamHeadersEnc ?? null);
    changes.upstreamHeadersEnc = sealHeaders(app.config.secret, mergeHeaders(stored, config.headers));
  }
  await routingChanges(app, input, changes, current);
  assertMcpPrice(changes, current);
  return changes;
}

/** Per-tool prices stored in name order (one form whatever order they were sent in). */
function sortedPrices(prices: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(prices).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * An MCP endpoint is priced per tool call (contract 6d): a tool call has no tokens to count, so a
 * token price on one would never be charged. Refused rather than stored unseen; so are per-tool
 * prices on an endpoint that has no tools.
 */
function assertMcpPrice(changes: TEndpointChanges, current?: TEndpointRow) {
  const protocol = changes.protocol ?? current?.protocol ?? 'openai';
  if (protocol !== 'mcp') {
    const tools = changes.toolPrices !== undefined ? changes.toolPrices : current?.toolPrices;
    if (tools)
      throw new AppError('validation', {
        inputError: 'config.tool_prices',
        messageKey: PROTOCOL_MESSAGES.toolPricesNotMcp,
      });
    return;
  }
  const input = changes.pricePer1mInput !== undefined ? changes.pricePer1mInput : current?.pricePer1mInput;
  const output =
    changes.pricePer1mOutput !== undefined ? changes.pricePer1mOutput : current?.pricePer1mOutput;
  if ((input ?? 0) > 0 || (output ?? 0) > 0)
    throw new AppError('validation', {
      inputError: 'config.price',
      messageKey: PROTOCOL_MESSAGES.mcpTokenPrice,
    });
}

/**
 * The routing part of an input (contract 6a) merged into what is stored: `upstreams` is the whole
 * set and sets `route_endpoint` to its first URL (a new `route_endpoint` alone moves the first
 * upstream); null puts a part back to its default. Every upstream URL passes the address checks;
 * fallbacks must name other routes this account may call.
 */
async function routingChanges(
  app: TServices,
  input: TUpdateAiEndpoint,
  changes: TEndpointChanges,
  current?: TEndpointRow,
): Promise<void> {
  const config = input.config;
  const touched =
    config !== undefined &&
    (config.upstreams !== undefined ||
      config.retry !== undefined ||
      config.fallbacks !== undefined ||
      config.circuit !== undefined ||
      config.cache_ttl_s !== undefined);
  const stored = current?.routing ?? null;
  if (!touched) {
    // Only the URL moved: the first upstream moves with it.
    if (changes.routeEndpoint !== undefined && stored?.upstreams?.length) {
      changes.routing = {
        ...stored,
        upstreams: [{ ...stored.upstreams[0]!, url: changes.routeEndpoint }, ...stored.upstreams.slice(1)],
      };
    }
    return;
  }
  const routing: TRoutingConfig = { ...(stored ?? {}) };
  if (config.upstreams !== undefined) {
    const upstreams: NonNullable<TRoutingConfig['upstreams']> = [];
    for (const [index, upstream] of config.upstreams.entries()) {
      const url = await assertUpstreamAllowed(
        upstream.url,
        app.config.upstreamAllowPrivate,
        undefined,
        `config.upstreams.${index}.url`,
      );
      // `openai` is the default and is not stored (entries stored before formats have none).
      upstreams.push(
        upstream.format === 'openai'
          ? { url, weight: upstream.weight }
          : { url, weight: upstream.weight, format: upstream.format },
      );
    }
    routing.upstreams = upstreams;
    changes.routeEndpoint = upstreams[0]!.url;
  } else if (changes.routeEndpoint !== undefined && routing.upstreams?.length) {
    routing.upstreams = [
      { ...routing.upstreams[0]!, url: changes.routeEndpoint },
      ...routing.upstreams.slice(1),
    ];
  }
  if (config.retry !== undefined) {
    if (config.retry === null) delete routing.retry;
    else routing.retry = config.retry;
  }
  if (config.circuit !== undefined) {
    if (config.circuit === null) delete routing.circuit;
    else routing.circuit = config.circuit;
  }
  if (config.cache_ttl_s !== undefined) {
    if (!config.cache_ttl_s) delete routing.cache_ttl_s;
    else routing.cache_ttl_s = config.cache_ttl_s;
  }
  if (config.fallbacks !== undefined) {
    if (config.fallbacks === null || config.fallbacks.length === 0) delete routing.fallbacks;
    else {
      const accountId = current?.accountId ?? changes.accountId;
      const self = changes.routeName ?? current?.routeName;
      const callable = accountId
        ? new Set((await callableModels(app.db, accountId)).map((row) => row.id))
        : null;
      config.fallbacks.forEach((name, index) => {
        if (name === self)
          throw new AppError('validation', {
            inputError: `config.fallbacks.${index}`,
            messageKey: ROUTING_MESSAGES.fallbackSelf,
          });
        if (!callable?.has(name))
          throw new AppError('validation', {
            inputError: `config.fallbacks.${index}`,
            messageKey: ROUTING_MESSAGES.fallbackUnknown,
            params: { name },
          });
      });
      routing.fallbacks = config.fallbacks;
    }
  }
  changes.routing = Object.keys(routing).length > 0 ? routing : null;
}
