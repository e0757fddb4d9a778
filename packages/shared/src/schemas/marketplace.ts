import { z } from 'zod';
import { pageQuery, ZPage } from './page';
import { ZApiProtocol, ZModelId, ZRouteType } from './aiendpoint';
import { ZPrice } from './price';

/**
 * The public marketplace catalog (contract 5a). No sign-in:
 * - `GET /api/marketplace?q=&type=&provider=&sort=&cursor=` → `{ data: TMarketplacePage }`, pages of 24.
 * - `GET /api/marketplace/{provider}/{name}` → `{ data: TMarketplaceEndpoint }`.
 */

export const MARKETPLACE_PAGE = 24;
/**
 * `fastest`: p50 latency; `reliable`: success rate; `uptime`, `p95`, `ttft` (a stream's time to
 * first token), `throughput` (tokens per second) and `price` (a million input plus a million
 * output tokens, then the per-call price): the figures callers choose by (decision 057).
 */
export const MARKETPLACE_SORTS = [
  'popular',
  'fastest',
  'reliable',
  'newest',
  'uptime',
  'p95',
  'ttft',
  'throughput',
  'price',
] as const;
export const ZMarketplaceSort = z.enum(MARKETPLACE_SORTS);
export type TMarketplaceSort = z.infer<typeof ZMarketplaceSort>;
/** Days of statistics on a card, and of history on an endpoint's page. */
export const MARKETPLACE_STATS_DAYS = 7;
export const MARKETPLACE_HISTORY_DAYS = 30;
/** The windows of the figures: a sort or filter uses the one asked (`window`, default 7d). */
export const MARKETPLACE_WINDOWS = ['7d', '30d'] as const;
export const ZMarketplaceWindow = z.enum(MARKETPLACE_WINDOWS);
export type TMarketplaceWindow = z.infer<typeof ZMarketplaceWindow>;
/** A minute is down when it holds this many consecutive failures (decision 057). */
export const UPTIME_FAILURE_RUN = 3;

/** A provider's slug: the part of a route name before the slash. */
export const ZProviderSlug = z
  .string()
  .trim()
  .toLowerCase()
  .max(128)
  .regex(/^[a-z0-9][a-z0-9._-]*$/);

export const ZMarketplaceQuery = z.strictObject({
  q: z.string().trim().max(200).optional(),
  type: ZRouteType.optional(),
  /** Only OpenAI-compatible or only MCP endpoints (contract 6d). */
  protocol: ZApiProtocol.optional(),
  provider: ZProviderSlug.optional(),
  /** Only endpoints declaring this model (`model_id`, compared in its normalized form; blank: any). */
  model: ZModelId.optional(),
  sort: ZMarketplaceSort.default('popular'),
  /** The figures' window the sort and the filters below use. */
  window: ZMarketplaceWindow.default('7d'),
  /** Only endpoints with at least this uptime (0 to 1) over the window; none without figures. */
  min_uptime: z.coerce.number().min(0).max(1).optional(),
  /** Only endpoints whose p95 latency (ms) over the window is at most this. */
  max_p95_ms: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** Only endpoints whose median time to first token (ms, streams) over the window is at most this. */
  max_ttft_ms: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** Only endpoints generating at least this many tokens per second over the window. */
  min_tokens_per_s: z.coerce.number().min(0).max(1_000_000).optional(),
  /** Only endpoints whose input and output prices per million tokens are each at most this (micros; free passes). */
  max_price_1m: z.coerce.number().int().min(0).max(1_000_000_000_000).optional(),
  /** Cursor pages of 24 (contract 5a), `limit` up to 48 (the signed-in grid asks 8). */
  ...pageQuery({ default: MARKETPLACE_PAGE, max: 48 }),
});
export type TMarketplaceQuery = z.input<typeof ZMarketplaceQuery>;

export const ZMarketplaceParams = z.strictObject({
  provider: ZProviderSlug,
  name: z
    .string()
    .max(128)
    .regex(/^[a-z0-9._:-]+$/),
});

const rate = z.number().min(0).max(1).nullable();
const ms = z.number().nonnegative().nullable();

/**
 * The figures callers choose by, over the last 7 and 30 days (today included), from other
 * accounts' calls only (the provider's own are left out): each null while nothing was measured.
 * Uptime: the share of the minutes with calls that had a success and no run of
 * UPTIME_FAILURE_RUN failures (decision 057).
 */
export const ZMarketplaceStats = z.object({
  calls_7d: z.number().int().nonnegative(),
  /** 2xx answers over all calls, 0 to 1; null while there are no calls. */
  success_rate_7d: rate,
  uptime_7d: rate,
  /** Median latency (ms) from the daily latency buckets; null while there are no calls. */
  p50_ms_7d: ms,
  p95_ms_7d: ms,
  /** Median time to first token of streamed 2xx answers (ms). */
  ttft_ms_7d: ms,
  /** Completion tokens per second of generation (a stream's time after its first token). */
  tokens_per_s_7d: ms,
  calls_30d: z.number().int().nonnegative(),
  success_rate_30d: rate,
  uptime_30d: rate,
  p50_ms_30d: ms,
  p95_ms_30d: ms,
  ttft_ms_30d: ms,
  tokens_per_s_30d: ms,
});
export type TMarketplaceStats = z.infer<typeof ZMarketplaceStats>;

export const ZMarketplaceItem = z.object({
  route_name: z.string(),
  name: z.string(),
  route_type: ZRouteType,
  /** `openai` (called at `/api/v1`) or `mcp` (at `/api/mcp/{route_name}`). */
  protocol: ZApiProtocol,
  provider: z.object({ name: z.string(), slug: z.string() }),
  /** The model it declares serving (normalized, decision 060); null for none. */
  model_id: z.string().nullable(),
  /** Plain text (the rich description without its markup), at most 300 characters here. */
  description: z.string(),
  /** Null when free. */
  price: ZPrice.nullable(),
  /**
   * An MCP endpoint's per-tool prices (micros per call of the tool, in place of `per_call`), `{}`
   * when none; absent on an OpenAI-compatible endpoint.
   */
  tool_prices: z.record(z.string(), z.number().int()).optional(),
  /** The billing currency of the price (ISO 4217, lower case). */
  currency: z.string(),
  currency_symbol: z.string(),
  stats: ZMarketplaceStats,
  created_at: z.iso.datetime(),
});
export type TMarketplaceItem = z.infer<typeof ZMarketplaceItem>;

export const ZMarketplacePage = ZPage(ZMarketplaceItem);
export type TMarketplacePage = z.infer<typeof ZMarketplacePage>;

export const ZMarketplaceDay = z.object({
  day: z.iso.date(),
  calls: z.number().int().nonnegative(),
  success_rate: z.number().min(0).max(1).nullable(),
});
export type TMarketplaceDay = z.infer<typeof ZMarketplaceDay>;

/**
 * Ready-to-copy calls: cURL, Node and Python always; the OpenAI SDK for an OpenAI-compatible
 * endpoint; an `mcpServers` client configuration (JSON) for an MCP one (contract 6d).
 */
export const ZMarketplaceSnippets = z.object({
  curl: z.string(),
  node: z.string(),
  python: z.string(),
  openai: z.string().optional(),
  mcp_servers: z.string().optional(),
});
export type TMarketplaceSnippets = z.infer<typeof ZMarketplaceSnippets>;

/**
 * One model across the listed endpoints declaring it (an endpoint's page): how many serve it,
 * their route names (most called first) and their figures combined (decision 062); its uptime is
 * the share of observed minutes in which some provider of it was up.
 */
export const ZMarketplaceModel = z.object({
  model_id: z.string(),
  providers: z.number().int().positive(),
  route_names: z.array(z.string()),
  stats: ZMarketplaceStats,
});
export type TMarketplaceModel = z.infer<typeof ZMarketplaceModel>;

/**
 * `GET /api/marketplace-models` (no sign-in, decision 062): the models the listed endpoints
 * declare, each with its providers and combined figures, sorted and filtered by the catalog's
 * figures (`sort`, `window` and the figure filters mean what they mean for endpoints; `q` matches
 * the model id). Its own path: under `/api/marketplace/` it would take a provider's slug.
 */
export const ZMarketplaceModelsQuery = ZMarketplaceQuery.pick({
  q: true,
  sort: true,
  window: true,
  min_uptime: true,
  max_p95_ms: true,
  max_ttft_ms: true,
  min_tokens_per_s: true,
  max_price_1m: true,
  cursor: true,
  limit: true,
});
export type TMarketplaceModelsQuery = z.input<typeof ZMarketplaceModelsQuery>;

/**
 * One model of the catalog's model view: as an endpoint page's `model` (uptime: the share of
 * observed minutes in which some provider of it was up), with the cheapest provider's price
 * (null when one is free: what `sort: "price"` calls first) and when it was first listed (the
 * oldest provider's creation).
 */
export const ZMarketplaceModelItem = ZMarketplaceModel.extend({
  price: ZPrice.nullable(),
  currency: z.string(),
  currency_symbol: z.string(),
  created_at: z.iso.datetime(),
});
export type TMarketplaceModelItem = z.infer<typeof ZMarketplaceModelItem>;

export const ZMarketplaceModelsPage = ZPage(ZMarketplaceModelItem);
export type TMarketplaceModelsPage = z.infer<typeof ZMarketplaceModelsPage>;

export const ZMarketplaceEndpoint = ZMarketplaceItem.extend({
  /** The full description: sanitised rich text (HTML). */
  description_html: z.string(),
  /** The last 30 days, oldest first, one entry a day (0 calls included). */
  daily: z.array(ZMarketplaceDay),
  snippets: ZMarketplaceSnippets,
  /** The model it declares, across every listed endpoint serving it (itself included); null without one. */
  model: ZMarketplaceModel.nullable(),
});
export type TMarketplaceEndpoint = z.infer<typeof ZMarketplaceEndpoint>;

/**
 * `GET /api/account/earnings` (owner): the provider's statement, one row per billing month,
 * route and price, from the charges on callers' invoices. Money in minor units.
 */
export const ZEarningsRow = z.object({
  /** `YYYY-MM`: the month the callers' invoices carrying these calls were written. */
  period: z.string(),
  route_name: z.string(),
  price: ZPrice,
  calls: z.number().int().nonnegative(),
  paying_accounts: z.number().int().nonnegative(),
  gross: z.number().int(),
  fee: z.number().int(),
  net: z.number().int(),
});
export type TEarningsRow = z.infer<typeof ZEarningsRow>;

export const ZEarnings = z.object({
  fee_percent: z.number(),
  currency: z.string(),
  currency_symbol: z.string(),
  rows: z.array(ZEarningsRow),
});
export type TEarnings = z.infer<typeof ZEarnings>;

/** An endpoint's figures before any call (each null, no calls). */
export const MARKETPLACE_NO_STATS: TMarketplaceStats = {
  calls_7d: 0,
  success_rate_7d: null,
  uptime_7d: null,
  p50_ms_7d: null,
  p95_ms_7d: null,
  ttft_ms_7d: null,
  tokens_per_s_7d: null,
  calls_30d: 0,
  success_rate_30d: null,
  uptime_30d: null,
  p50_ms_30d: null,
  p95_ms_30d: null,
  ttft_ms_30d: null,
  tokens_per_s_30d: null,
};

/** Characters of a provider's profile at most. */
export const PROVIDER_PROFILE_MAX = 1000;

/**
 * The short profile an owner writes for its marketplace provider page: plain text, line breaks
 * allowed, no other control character, at most PROVIDER_PROFILE_MAX characters; empty clears it.
 * `GET` / `PUT /api/account/marketplace-profile` (owner).
 */
export const ZProviderProfile = z.object({
  profile: z
    .string()
    .max(PROVIDER_PROFILE_MAX)
    // eslint-disable-next-line no-control-regex
    .refine((text) => !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/.test(text), {
      message: 'No control characters',
    }),
});
export type TProviderProfile = z.infer<typeof ZProviderProfile>;
export const ZProviderProfileUpdate = z.strictObject({ profile: ZProviderProfile.shape.profile });

export const ZProviderParams = z.strictObject({ provider: ZProviderSlug });

/**
 * `GET /api/marketplace/{provider}` (no sign-in): a provider's page. Its listed endpoints (the
 * catalog's items, most called first), their combined figures, and the owner's profile. 404 when
 * the provider lists nothing.
 */
export const ZMarketplaceProvider = z.object({
  provider: z.object({ name: z.string(), slug: z.string(), profile: z.string() }),
  stats: ZMarketplaceStats,
  endpoints: z.array(ZMarketplaceItem),
});
export type TMarketplaceProvider = z.infer<typeof ZMarketplaceProvider>;
