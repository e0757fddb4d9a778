import { ZProviderPreferences, type TProviderPreferences } from '@air/shared/schemas/gateway';
import type { TPrice } from '@air/shared/schemas/price';
import type { TKeyAuth } from '../core/credentials';
import type { TModelProvider } from '../modules/aiendpoint-shared/service';
import { mayCall } from './call-outcome';
import type { TDirectory, TModelEntry, TRouteEntry } from './directory';
import type { TProtocol } from './protocols';

/*
 * A call that names a model id instead of a route (contract 5b, decision 058): the providers
 * serving it that the key may call, ordered by the body's `provider` preferences (OpenRouter's
 * names and meanings), the first called and the others its fallbacks. Everything is read from
 * the directory's memory (routes and the model's providers with their figures); a cold name is
 * looked up once like any route.
 */

/** The providers to try, in order (null: none may be used). */
export type TModelPlan = { candidates: TRouteEntry[]; fallbacks: boolean } | null;

/** A provider's slug: its route name's part before the slash. */
export const providerSlug = (routeName: string) => routeName.slice(0, routeName.indexOf('/'));

/** The body's `provider` object, checked; a message naming the bad field when it is no valid one. */
export function readPreferences(
  parsed: Record<string, unknown>,
): { preferences: TProviderPreferences } | { invalid: string } {
  const raw = parsed.provider;
  if (raw === undefined || raw === null) return { preferences: {} };
  const checked = ZProviderPreferences.safeParse(raw);
  if (checked.success) return { preferences: checked.data };
  const issue = checked.error.issues[0]!;
  const path = ['provider', ...issue.path.map(String)].join('.');
  return { invalid: `The body's "${path}" is invalid: ${issue.message}.` };
}

/** The price a call of this key is charged at: its own account's endpoints are free to it. */
const priceFor = (key: TKeyAuth, route: TRouteEntry): TPrice | null =>
  route.accountId === key.accountId ? null : route.price;

/**
 * As the catalog's `price` sort (aiendpoint-shared/figures.ts): a million input and a million
 * output tokens, then a call's price as a millionth of it; free is 0.
 */
function priceKey(price: TPrice | null): number {
  if (!price) return 0;
  return price.per_1m_input_tokens + price.per_1m_output_tokens + price.per_call / 1_000_000;
}

const MICROS = 1_000_000;

/** Within every bound of `max_price` (main units, per million tokens / per call). */
function withinMaxPrice(price: TPrice | null, max: TProviderPreferences['max_price']): boolean {
  if (!max || !price) return true;
  const over = (bound: number | null | undefined, micros: number) =>
    bound !== null && bound !== undefined && micros > Math.round(bound * MICROS);
  return !(
    over(max.prompt, price.per_1m_input_tokens) ||
    over(max.completion, price.per_1m_output_tokens) ||
    over(max.request, price.per_call)
  );
}

interface TCandidate {
  route: TRouteEntry;
  stats: TModelProvider['stats'];
  price: number;
}

/** Smaller first, a missing figure last. */
const ascending = (a: number | null, b: number | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b;
/** Larger first, a missing figure last. */
const descending = (a: number | null, b: number | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a;

/**
 * `sort` over the catalog's 7-day figures: price (cheapest), latency (median), throughput
 * (tokens per second), reliability (uptime, then success rate); ties by price, then route name.
 */
function compare(sort: TProviderPreferences['sort']) {
  return (a: TCandidate, b: TCandidate): number => {
    let order = 0;
    switch (sort) {
      case 'latency':
        order = ascending(a.stats.p50_ms_7d, b.stats.p50_ms_7d);
        break;
      case 'throughput':
        order = descending(a.stats.tokens_per_s_7d, b.stats.tokens_per_s_7d);
        break;
      case 'reliability':
        order =
          descending(a.stats.uptime_7d, b.stats.uptime_7d) ||
          descending(a.stats.success_rate_7d, b.stats.success_rate_7d);
        break;
      default:
        break;
    }
    if (order === 0) order = a.price - b.price;
    if (order === 0) order = a.route.routeName < b.route.routeName ? -1 : 1;
    return order;
  };
}

/** The model's providers as route entries, looked up where not cached yet (the first call only). */
function providerRoutes(
  directory: TDirectory,
  model: TModelEntry,
): (TRouteEntry | null)[] | Promise<(TRouteEntry | null)[]> {
  const entries = model.providers.map((provider) => directory.routes.peek(provider.routeName));
  if (!entries.includes(undefined)) return entries as (TRouteEntry | null)[];
  return Promise.all(
    model.providers.map(
      (provider, i) => entries[i] ?? directory.routes.load(provider.routeName).catch(() => null),
    ),
  );
}

/**
 * The providers of `model` this call may use, in the order of its preferences: the key may call
 * them (contract 6), they serve the call's protocol, `only` / `ignore` / `max_price` let them
 * through, and a priced one of another account needs a card (when only such ones are left, the
 * first is planned alone, so the call is refused with a 402 as a call to it would be).
 */
export function planModelCall(
  directory: TDirectory,
  model: TModelEntry,
  call: { key: TKeyAuth; hasCard: boolean; protocol: TProtocol; preferences: TProviderPreferences },
): TModelPlan | Promise<TModelPlan> {
  const routes = providerRoutes(directory, model);
  if (routes instanceof Promise) return routes.then((found) => order(model, found, call));
  return order(model, routes, call);
}

function order(
  model: TModelEntry,
  routes: (TRouteEntry | null)[],
  call: { key: TKeyAuth; hasCard: boolean; protocol: TProtocol; preferences: TProviderPreferences },
): TModelPlan {
  const { key, hasCard, protocol, preferences } = call;
  const only = preferences.only ? new Set(preferences.only) : null;
  const ignore = preferences.ignore ? new Set(preferences.ignore) : null;
  const candidates: TCandidate[] = [];
  // A priced provider left out for want of a card: the call is refused as a call to it would be.
  let needsCard: TRouteEntry | null = null;
  routes.forEach((route, i) => {
    if (!mayCall(key, route) || route.mcp || !route.protocols.has(protocol.name)) return;
    const slug = providerSlug(route.routeName);
    if (only !== null && !only.has(slug)) return;
    if (ignore !== null && ignore.has(slug)) return;
    const price = priceFor(key, route);
    if (!withinMaxPrice(price, preferences.max_price)) return;
    if (price !== null && !hasCard) {
      needsCard ??= route;
      return;
    }
    candidates.push({ route, stats: model.providers[i]!.stats, price: priceKey(price) });
  });
  if (candidates.length === 0) return needsCard ? { candidates: [needsCard], fallbacks: false } : null;
  candidates.sort(compare(preferences.sort));
  return {
    candidates: candidates.map((candidate) => candidate.route),
    fallbacks: preferences.allow_fallbacks !== false,
  };
}
