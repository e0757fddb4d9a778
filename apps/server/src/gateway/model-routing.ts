import { ZProviderPreferences, type TProviderPreferences } from '@air/shared/schemas/gateway';
import type { TPrice } from '@air/shared/schemas/price';
import type { TKeyAuth } from '../core/credentials';
import type { TModelProvider } from '../modules/aiendpoint-shared/service';
import { mayCall } from './call-outcome';
import type { TDirectory, TModelEntry, TRouteEntry } from './directory';
import type { TProtocol } from './protocols';

/*
 * A call that names a model id instead of a route (contract 5b, decision 060): the providers
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

type TSort = TProviderPreferences['sort'];

/**
 * How `sort` ranks two providers over the catalog's 7-day figures: price (cheapest), latency
 * (median), throughput (tokens per second), reliability (uptime, then success rate); then price.
 * 0: they rank equal (the call spreads across such providers, decision 060).
 */
function rank(sort: TSort, a: TCandidate, b: TCandidate): number {
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
  return order === 0 ? a.price - b.price : order;
}

/** The rank, then the route name: a total order (built once per sort, not per call). */
const byRouteName = (a: TCandidate, b: TCandidate) => (a.route.routeName < b.route.routeName ? -1 : 1);
const COMPARE = {
  none: (a: TCandidate, b: TCandidate) => rank(undefined, a, b) || byRouteName(a, b),
  price: (a: TCandidate, b: TCandidate) => rank('price', a, b) || byRouteName(a, b),
  latency: (a: TCandidate, b: TCandidate) => rank('latency', a, b) || byRouteName(a, b),
  throughput: (a: TCandidate, b: TCandidate) => rank('throughput', a, b) || byRouteName(a, b),
  reliability: (a: TCandidate, b: TCandidate) => rank('reliability', a, b) || byRouteName(a, b),
} as const;

/** Moves `list[from]` to the front, the others before it shifted one on (in place). */
function toFront(list: TCandidate[], from: number): void {
  const chosen = list[from]!;
  for (let i = from; i > 0; i--) list[i] = list[i - 1]!;
  list[0] = chosen;
}

/**
 * Spreads the calls across the first providers (decision 060), in place on the sorted list; `random`
 * is in [0, 1). With `sort`: among the first providers that rank equal, each is first as often
 * (the group turned round by a uniform draw, so its fallback order turns too). Without it,
 * OpenRouter's default: the first is drawn weighted by the inverse square of its price (1 and 3
 * per million: the first 9 times as often), the others stay its fallbacks by price; free ones (0)
 * outweigh every priced one and share the calls equally.
 */
function spread(sorted: TCandidate[], sort: TSort, random: number): void {
  if (sorted.length < 2) return;
  if (sort !== undefined || sorted[0]!.price === 0) {
    let tied = 1;
    while (tied < sorted.length && rank(sort, sorted[0]!, sorted[tied]!) === 0) tied++;
    const turn = Math.min(tied - 1, Math.floor(random * tied));
    if (turn === 0) return;
    // Turned round by `turn` without a copy: three reversals of the group.
    reverse(sorted, 0, turn - 1);
    reverse(sorted, turn, tied - 1);
    reverse(sorted, 0, tied - 1);
    return;
  }
  let total = 0;
  for (const candidate of sorted) total += 1 / (candidate.price * candidate.price);
  let ticket = random * total;
  for (let i = 0; i < sorted.length; i++) {
    const price = sorted[i]!.price;
    ticket -= 1 / (price * price);
    if (ticket < 0) return toFront(sorted, i);
  }
  // Rounding left a sliver of the ticket: the last (the priciest) takes it.
  toFront(sorted, sorted.length - 1);
}

function reverse(list: TCandidate[], from: number, to: number): void {
  for (let i = from, j = to; i < j; i++, j--) {
    const swap = list[i]!;
    list[i] = list[j]!;
    list[j] = swap;
  }
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

/** What of a call its plan depends on; `random` draws in [0, 1) (Math.random; a test's own source). */
interface TModelCallOf {
  key: TKeyAuth;
  hasCard: boolean;
  protocol: TProtocol;
  preferences: TProviderPreferences;
  random: () => number;
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
  call: TModelCallOf,
): TModelPlan | Promise<TModelPlan> {
  const routes = providerRoutes(directory, model);
  if (routes instanceof Promise) return routes.then((found) => order(model, found, call));
  return order(model, routes, call);
}

function order(model: TModelEntry, routes: (TRouteEntry | null)[], call: TModelCallOf): TModelPlan {
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
  candidates.sort(COMPARE[preferences.sort ?? 'none']);
  spread(candidates, preferences.sort, call.random());
  return {
    candidates: candidates.map((candidate) => candidate.route),
    fallbacks: preferences.allow_fallbacks !== false,
  };
}
