import type { TMarketplaceSort, TMarketplaceWindow } from '@air/shared/schemas/marketplace';
import type { TApiProtocol, TRouteType } from '@air/shared/schemas/aiendpoint';

/** What a catalog read asks for (the query of GET /api/marketplace), shared by the catalog and its figures. */
export interface TCatalogFilters {
  q?: string;
  type?: TRouteType;
  protocol?: TApiProtocol;
  provider?: string;
  /** A model id, normalized (null or absent: any). */
  model?: string | null;
  sort: TMarketplaceSort;
  /** The figures' window the sort and the figure filters use (default 7d). */
  window?: TMarketplaceWindow;
  min_uptime?: number;
  max_p95_ms?: number;
  max_ttft_ms?: number;
  min_tokens_per_s?: number;
  /** Micros per million tokens, input and output each. */
  max_price_1m?: number;
  cursor?: string;
  /** Items on the page (the query's default: MARKETPLACE_PAGE). */
  limit: number;
}
