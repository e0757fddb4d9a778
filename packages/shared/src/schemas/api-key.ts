import { z } from 'zod';
import { missingError } from '../validation';
import { ZMcpToolName, ZRouteName } from './aiendpoint';
import { SPEND_LIMIT_MAX_MINOR } from './spend-limit';

/**
 * API keys (server contract section 4). A key is `air_` + 40 base62 characters; the server keeps
 * its SHA-256 (look-up), a sealed copy (reveal) and a short prefix (lists).
 *
 * Wire shapes:
 * - `GET /api/key` → `{ data: TApiKey[] }` where `key` is masked (`air_AbCd…`).
 * - `GET /api/key/{id}` → `{ data: TApiKey }` where `key` is the full key (reveal).
 * - `POST /api/key` → `{ data: TApiKey & { full_key } }`: the only answer that carries `full_key`.
 * - `GET /api/key/scopes` → `{ data: TApiKeyScope[] }`.
 */

export const API_KEY_SCOPES = [
  'gateway.invoke',
  'aiendpoint.read',
  'aiendpoint.write',
  'usage.read',
  'account.read',
] as const;
export const ZApiKeyScope = z.enum(API_KEY_SCOPES);
export type TApiKeyScope = z.infer<typeof ZApiKeyScope>;

export const API_KEY_PREFIX = 'air_';
export const API_KEY_RANDOM_LENGTH = 40;
/** The exact shape of a raw key: anything else is refused before any look-up. */
export const API_KEY_PATTERN = /^air_[0-9A-Za-z]{40}$/;
/** Characters of the key shown in lists (`air_` plus the first four random characters). */
export const API_KEY_VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

/** Message keys of the spec's literal texts ("Please provide a descriptive name for your key"…). */
export const API_KEY_MESSAGES = {
  nameRequired: 'validation.key_name_required',
  scopeRequired: 'validation.key_scope_required',
} as const;

const ZKeyName = z
  .string({ error: missingError(API_KEY_MESSAGES.nameRequired) })
  .trim()
  .min(1, { error: API_KEY_MESSAGES.nameRequired })
  .max(100);
const ZKeyScopes = z
  .array(ZApiKeyScope, { error: missingError(API_KEY_MESSAGES.scopeRequired) })
  .min(1, { error: API_KEY_MESSAGES.scopeRequired })
  .max(API_KEY_SCOPES.length * 2);

/*
 * Key controls (server contract section 6b): an expiry, an allow-list of routes and a monthly cap
 * of calls; null (or absent) for none.
 */
export const KEY_ROUTES_MAX = 100;
export const KEY_MONTHLY_CALLS_MAX = 1_000_000_000;
export const KEY_CONTROL_MESSAGES = {
  expiresInPast: 'validation.key_expires_past',
  routeUnknown: 'validation.key_route_unknown',
} as const;

const ZKeyExpiresAt = z.iso.datetime({ offset: true }).nullable();
const ZKeyRoutes = z
  .array(ZRouteName)
  .min(1)
  .max(KEY_ROUTES_MAX)
  .transform((names) => [...new Set(names)])
  .nullable();
const ZKeyMonthlyCalls = z.number().int().min(1).max(KEY_MONTHLY_CALLS_MAX).nullable();

/**
 * Governance in tokens and money (contract 6e): prompt plus completion tokens per minute (with
 * the plan's, the lower applies) and marketplace spend per plan period in minor units of the
 * billing currency, as the account's spend limit is entered (0 refuses every priced call).
 */
export const KEY_TOKENS_PER_MINUTE_MAX = 1_000_000_000;
const ZKeyTokensPerMinute = z.number().int().min(1).max(KEY_TOKENS_PER_MINUTE_MAX).nullable();
const ZKeyMonthlySpend = z
  .number({ error: 'validation.spend_limit' })
  .int({ error: 'validation.spend_limit' })
  .min(0, { error: 'validation.spend_limit' })
  .max(SPEND_LIMIT_MAX_MINOR, { error: 'validation.spend_limit' })
  .nullable();

/** Page origins a key may be used from in a browser (contract 6c, CORS): none by default. */
export const KEY_ORIGINS_MAX = 20;
const ZKeyOrigin = z
  .string()
  .max(200)
  .regex(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i, { error: 'validation.key_origin' })
  .transform((origin) => origin.toLowerCase());
const ZKeyOrigins = z
  .array(ZKeyOrigin)
  .max(KEY_ORIGINS_MAX)
  .transform((origins) => [...new Set(origins)]);

/**
 * A key's MCP tools (contract 6d): `{ route, tool }` pairs, or null for every tool of the routes
 * it may call; a tool not listed is not shown and a call to it is refused as unknown.
 */
export const KEY_TOOLS_MAX = 200;
const ZKeyTools = z
  .array(z.strictObject({ route: ZRouteName, tool: ZMcpToolName }))
  .max(KEY_TOOLS_MAX)
  .transform((tools) => {
    const seen = new Set<string>();
    return tools.filter((entry) => {
      const name = `${entry.route} ${entry.tool}`;
      if (seen.has(name)) return false;
      seen.add(name);
      return true;
    });
  })
  .nullable();

export const ZCreateApiKey = z.strictObject({
  name: ZKeyName,
  scope: ZKeyScopes,
  expires_at: ZKeyExpiresAt.optional(),
  routes: ZKeyRoutes.optional(),
  monthly_calls: ZKeyMonthlyCalls.optional(),
  tokens_per_minute: ZKeyTokensPerMinute.optional(),
  monthly_spend: ZKeyMonthlySpend.optional(),
  allowed_origins: ZKeyOrigins.optional(),
  tools: ZKeyTools.optional(),
  /** Only tools their server marks read-only (`readOnlyHint`) are listed and callable. */
  tools_read_only: z.boolean().optional(),
});
export type TCreateApiKey = z.infer<typeof ZCreateApiKey>;

/** `{ name, scope }` to edit, or `{ active: false }` to revoke (a revoked key stays revoked). */
export const ZUpdateApiKey = z.strictObject({
  name: ZKeyName.optional(),
  scope: ZKeyScopes.optional(),
  active: z.boolean().optional(),
  expires_at: ZKeyExpiresAt.optional(),
  routes: ZKeyRoutes.optional(),
  monthly_calls: ZKeyMonthlyCalls.optional(),
  tokens_per_minute: ZKeyTokensPerMinute.optional(),
  monthly_spend: ZKeyMonthlySpend.optional(),
  allowed_origins: ZKeyOrigins.optional(),
  tools: ZKeyTools.optional(),
  /** Only tools their server marks read-only (`readOnlyHint`) are listed and callable. */
  tools_read_only: z.boolean().optional(),
});
export type TUpdateApiKey = z.infer<typeof ZUpdateApiKey>;

const ZKeyIds = z.array(z.uuid()).min(1).max(500);
/** `DELETE /api/key`: `{ ids: [...] }` or a bare array of ids. */
export const ZDeleteApiKeys = z.union([ZKeyIds, z.strictObject({ ids: ZKeyIds })]);
export type TDeleteApiKeys = z.infer<typeof ZDeleteApiKeys>;

export const ZApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  /** Masked (`air_AbCd…`) in lists, the full key in `GET /api/key/{id}`. */
  key: z.string(),
  scope: z.array(ZApiKeyScope),
  active: z.boolean(),
  date_created: z.string(),
  last_used: z.string().nullable(),
  /** ISO date-time after which the key is refused, or null. */
  expires_at: z.string().nullable(),
  /** The only routes the key may call, or null for all it may reach. */
  routes: z.array(z.string()).nullable(),
  /** The key's cap of calls per plan period, or null. */
  monthly_calls: z.number().int().nullable(),
  /** The key's own limit of tokens per minute, or null (contract 6e). */
  tokens_per_minute: z.number().int().nullable(),
  /** The key's budget of marketplace spend per plan period, minor units, or null (contract 6e). */
  monthly_spend: z.number().int().nullable(),
  /** Page origins that may use the key from a browser; empty: none (contract 6c). */
  allowed_origins: z.array(z.string()),
  /** The only MCP tools the key may call (`{ route, tool }`), or null for every tool (contract 6d). */
  tools: z.array(z.object({ route: z.string(), tool: z.string() })).nullable(),
  /** Only tools marked read-only (`readOnlyHint`) by their server (contract 6d). */
  tools_read_only: z.boolean(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZCreatedApiKey = ZApiKey.extend({ full_key: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

/** The masked form lists show: the stored prefix and an ellipsis. */
export function maskApiKey(prefix: string): string {
  return `${prefix}…`;
}

/**
 * `GET /api/user` called with an API key that carries `account.read`: the key and its account. A
 * key is no person, so the answer names no user (decision 012).
 */
export const ZKeyIdentity = z.object({
  kind: z.literal('api_key'),
  key_id: z.uuid(),
  key_name: z.string(),
  scope: z.array(ZApiKeyScope),
  account_id: z.uuid(),
  account_name: z.string(),
  /** The account's plan id, or null before one is chosen. */
  plan: z.string().nullable(),
});
export type TKeyIdentity = z.infer<typeof ZKeyIdentity>;
