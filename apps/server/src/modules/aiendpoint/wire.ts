import {
  MASKED_HEADER_VALUE,
  ROUTING_LIMITS,
  type TAiEndpoint,
  type TSharedAiEndpoint,
} from '@air/shared/schemas/aiendpoint';
import type { TPrice } from '@air/shared/schemas/price';
import type { aiEndpoints } from '../../db/schema/ai-endpoints';
import { decryptSecret } from '../../lib/crypto';

export type TEndpointRow = typeof aiEndpoints.$inferSelect;

/** The upstream headers, decrypted (`{}` when none). */
export function openHeaders(secret: string, sealed: string | null): Record<string, string> {
  if (!sealed) return {};
  return JSON.parse(decryptSecret(secret, sealed)) as Record<string, string>;
}

/** The endpoint's marketplace price, or null when free (the three columns are set together). */
export function priceOf(
  row: Pick<TEndpointRow, 'pricePerCall' | 'pricePer1mInput' | 'pricePer1mOutput'>,
): TPrice | null {
  if (row.pricePerCall === null || row.pricePer1mInput === null || row.pricePer1mOutput === null) return null;
  return {
    per_call: row.pricePerCall,
    per_1m_input_tokens: row.pricePer1mInput,
    per_1m_output_tokens: row.pricePer1mOutput,
  };
}

/** What any signed-in user may see of a shared public endpoint: no URL, no upstream settings. */
export function toSharedWire(row: TEndpointRow, accountName: string): TSharedAiEndpoint {
  return {
    id: row.id,
    name: row.name,
    route_name: row.routeName,
    route_type: row.routeType,
    isActive: row.isActive,
    isPrivate: row.isPrivate,
    isShared: row.isShared,
    protocol: row.protocol,
    model_id: row.modelId,
    account_orgDisplayName: accountName,
    config: { description: row.description },
  };
}

/** The owner's view: everything, with header values masked. */
export function toOwnWire(row: TEndpointRow, accountName: string, secret: string): TAiEndpoint {
  const headers = Object.fromEntries(
    Object.keys(openHeaders(secret, row.upstreamHeadersEnc)).map((name) => [name, MASKED_HEADER_VALUE]),
  );
  return {
    ...toSharedWire(row, accountName),
    route_endpoint: row.routeEndpoint,
    config: {
      description: row.description,
      upstream_model: row.upstreamModel,
      timeout_ms: row.upstreamTimeoutMs,
      headers,
      price: priceOf(row),
      ...(row.protocol === 'mcp' ? { tool_prices: row.toolPrices ?? {} } : {}),
      upstreams: (
        row.routing?.upstreams ?? [{ url: row.routeEndpoint, weight: ROUTING_LIMITS.weight.default }]
      ).map((upstream) => ({
        url: upstream.url,
        weight: upstream.weight,
        format: upstream.format ?? 'openai',
      })),
      retry: row.routing?.retry ?? {
        attempts: ROUTING_LIMITS.attempts.default,
        backoff_ms: ROUTING_LIMITS.backoffMs.default,
      },
      fallbacks: row.routing?.fallbacks ?? [],
      circuit: row.routing?.circuit ?? {
        failures: ROUTING_LIMITS.failures.default,
        cooldown_s: ROUTING_LIMITS.cooldownS.default,
      },
      cache_ttl_s: row.routing?.cache_ttl_s ?? ROUTING_LIMITS.cacheTtlS.default,
      trace_content: row.traceContent,
    },
    protocols: row.protocols ?? null,
    disabled_tools: row.disabledTools,
    editable: true,
    date_created: row.createdAt.toISOString(),
    date_updated: row.updatedAt.toISOString(),
  };
}
