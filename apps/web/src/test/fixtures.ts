import type { TAiEndpoint, TSharedAiEndpoint } from '@air/shared/schemas/aiendpoint';
import type { TListedApiKey } from '@air/shared/schemas/limits';
import type { TItem } from '@air/shared/schemas/item';
import type { TUsage } from '@air/shared/schemas/usage';
import type { TAccountOverview } from '@air/shared/schemas/overview';
import type { TSignInData, TUser, TUserSubscription } from '@air/shared/schemas/user';

/**
 * Complete answers of the server, typed from `@air/shared`, for tests to override field by field:
 * a test states only what it is about, and the rest is a shape the server really sends.
 */

export const USER_ID = '00000000-0000-4000-8000-0000000000a1';
export const ACCOUNT_ID = '00000000-0000-4000-8000-0000000000b1';
const CREATED = '2026-05-01T10:00:00.000Z';

export const PERMISSION_MAPS = {
  master: { master: true, owner: true, admin: true, developer: true, user: true },
  owner: { master: false, owner: true, admin: true, developer: true, user: true },
  admin: { master: false, owner: false, admin: true, developer: false, user: true },
  developer: { master: false, owner: false, admin: false, developer: true, user: true },
  user: { master: false, owner: false, admin: false, developer: false, user: true },
} as const;

export function subscriptionFixture(patch: Partial<TUserSubscription> = {}): TUserSubscription {
  return {
    status: 'active',
    cancel_at_period_end: false,
    seats: 1,
    seat_price: 0,
    currency_symbol: '$',
    interval: 'month',
    current_period_start: CREATED,
    current_period_end: '2026-06-01T10:00:00.000Z',
    ...patch,
  };
}

export function userFixture(patch: Partial<TUser> = {}): TUser {
  return {
    id: USER_ID,
    name: 'Ada',
    email: 'ada@example.com',
    avatar: null,
    verified: true,
    role: 'owner',
    permission: { ...PERMISSION_MAPS.owner },
    has_password: true,
    '2fa_enabled': false,
    support_enabled: false,
    accounts: [{ id: ACCOUNT_ID, name: 'Ada' }],
    default_account: ACCOUNT_ID,
    account_id: ACCOUNT_ID,
    account_name: 'Ada',
    locale: 'en',
    dark_mode: false,
    plan: 'free',
    subscription: subscriptionFixture(),
    onboarded: true,
    duplicate_user: false,
    last_login: null,
    date_created: CREATED,
    ...patch,
  };
}

export function signInFixture(patch: Partial<TSignInData> = {}): TSignInData {
  return { ...userFixture(), token: 'session-jwt', ...patch };
}

/** A key as the key list answers it (with its use this period: none by default). */
export function apiKeyFixture(patch: Partial<TListedApiKey> = {}): TListedApiKey {
  return {
    id: '00000000-0000-4000-8000-0000000000c1',
    name: 'Key',
    key: 'air_aaaa…',
    scope: ['gateway.invoke'],
    active: true,
    date_created: CREATED,
    last_used: null,
    expires_at: null,
    routes: null,
    monthly_calls: null,
    tokens_per_minute: null,
    monthly_spend: null,
    allowed_origins: [],
    tools: null,
    tools_read_only: false,
    usage: {
      period: '2026-01',
      calls: 0,
      refused: 0,
      limit_reached: false,
      tokens: 0,
      spend: 0,
      budget_reached: false,
      currency: 'usd',
    },
    ...patch,
  };
}

export function sharedEndpointFixture(patch: Partial<TSharedAiEndpoint> = {}): TSharedAiEndpoint {
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    name: 'Echo',
    route_name: 'acme/echo',
    route_type: 'model',
    protocol: 'openai',
    model_id: null,
    isActive: true,
    isPrivate: false,
    isShared: false,
    account_orgDisplayName: 'Ada',
    config: { description: '' },
    ...patch,
  };
}

/** An endpoint's owner config with the routing defaults (one upstream, no retry, no cache). */
export function routingConfigFixture(
  url: string,
  patch: Partial<TAiEndpoint['config']> = {},
): TAiEndpoint['config'] {
  return {
    description: '',
    upstream_model: null,
    timeout_ms: null,
    headers: {},
    upstreams: [{ url, weight: 1, format: 'openai' }],
    retry: { attempts: 0, backoff_ms: 250 },
    fallbacks: [],
    circuit: { failures: 5, cooldown_s: 30 },
    cache_ttl_s: 0,
    trace_content: false,
    price: null,
    ...patch,
  };
}

export function endpointFixture(patch: Partial<TAiEndpoint> = {}): TAiEndpoint {
  return {
    ...sharedEndpointFixture(),
    route_endpoint: 'https://upstream.example/v1/chat/completions',
    config: routingConfigFixture('https://upstream.example/v1/chat/completions'),
    protocols: null,
    disabled_tools: [],
    editable: true,
    date_created: CREATED,
    date_updated: CREATED,
    ...patch,
  };
}

export function itemFixture(patch: Partial<TItem> = {}): TItem {
  return { id: '00000000-0000-4000-8000-0000000000e1', name: 'Item', date_created: CREATED, ...patch };
}

export function usageFixture(patch: Partial<TUsage> = {}): TUsage {
  return {
    label: 'calls',
    total: 0,
    quota: 1000,
    period: '2026-05',
    period_start: '2026-05-01T00:00:00.000Z',
    period_end: '2026-06-01T00:00:00.000Z',
    ...patch,
  };
}

/** 30 days to 2026-05-20 with `calls` on each day (errors 0), oldest first. */
function trendFixture(calls: (day: number) => number) {
  return Array.from({ length: 30 }, (_, i) => {
    const day = new Date(Date.UTC(2026, 4, 20) - (29 - i) * 86_400_000).toISOString().slice(0, 10);
    return { day, calls: calls(i), errors: 0 };
  });
}

export function overviewFixture(patch: Partial<TAccountOverview> = {}): TAccountOverview {
  return {
    today: '2026-05-20',
    period: { period: '2026-05', from: '2026-05-01' },
    calls_today: 0,
    calls_period: 0,
    errors_period: 0,
    error_rate: null,
    latency_p50_ms: null,
    trend: trendFixture(() => 0),
    quota: {
      period: '2026-05',
      calls: 0,
      quota: 1000,
      percent: 0,
      projected_day: null,
      reached: false,
    },
    top_routes: [],
    endpoints: [],
    endpoint_count: 0,
    latest_calls: [],
    started: { key: false, endpoint: false, call: false },
    ...patch,
  };
}

export { trendFixture };
