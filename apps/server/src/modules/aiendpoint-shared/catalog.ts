import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { buildMcpSnippets } from '@air/shared/mcp-snippets';
import { buildSnippets, PLACEHOLDER_KEY } from '@air/shared/snippets';
import {
  MARKETPLACE_HISTORY_DAYS,
  type TMarketplaceEndpoint,
  type TMarketplaceItem,
  type TMarketplaceModel,
  type TMarketplaceModelItem,
  type TMarketplaceModelsPage,
  type TMarketplacePage,
  type TMarketplaceSnippets,
  type TMarketplaceSort,
  type TMarketplaceStats,
  type TMarketplaceWindow,
} from '@air/shared/schemas/marketplace';
import type { TPlan } from '@air/shared/schemas/plan';
import type { TApiProtocol, TRouteType } from '@air/shared/schemas/aiendpoint';
import type { TDb } from '../../db/client';
import { aiEndpoints } from '../../db/schema/ai-endpoints';
import { endpointDaily } from '../../db/schema/endpoint-daily';
import { AppError } from '../../lib/app-error';
import { plainText } from '../../lib/sanitize-html';
import { accountNames } from '../membership/service';
import { priceOf } from '../aiendpoint/service';
import { dayOf } from '../usage/service';
import type { TCatalogFilters } from './catalog-filters';
import {
  combinedWindows,
  modelMinutesOf,
  passes,
  sortKey,
  statsFrom,
  statsOf,
  withModelMinutes,
  type TRanked,
  type TSortKey,
  type TWindows,
} from './figures';

const DAY_MS = 86_400_000;
const SUMMARY_CHARS = 300;

export type { TCatalogFilters } from './catalog-filters';

/** What a read of the catalog's models asks for (the query of GET /api/marketplace-models). */
export type TModelsFilters = Omit<TCatalogFilters, 'type' | 'protocol' | 'provider' | 'model'>;

export interface TListed {
  id: string;
  accountId: string;
  routeName: string;
  name: string;
  routeType: TRouteType;
  protocol: TApiProtocol;
  modelId: string | null;
  description: string;
  accountName: string;
  createdAt: Date;
  pricePerCall: number | null;
  pricePer1mInput: number | null;
  pricePer1mOutput: number | null;
  toolPrices: Record<string, number> | null;
}

/** The billing currency prices are in: the plans' (every plan of the file has the same). */
export function billingCurrency(plans: TPlan[]): { currency: string; symbol: string } {
  const plan = plans.find((p) => p.price > 0) ?? plans[0];
  return { currency: plan?.currency ?? 'usd', symbol: plan?.currency_symbol ?? '$' };
}

const slugOf = (routeName: string) => routeName.slice(0, routeName.indexOf('/'));

/** `%` and `_` taken literally in an ILIKE pattern. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Active, shared, public endpoints of open accounts: the only ones the catalog ever shows. */
function listedWhere(account: ReturnType<typeof accountNames>, ...more: (SQL | undefined)[]) {
  return and(
    eq(aiEndpoints.isActive, true),
    eq(aiEndpoints.isShared, true),
    eq(aiEndpoints.isPrivate, false),
    isNull(account.closedAt),
    ...more,
  );
}

export async function listed(
  db: TDb,
  filters: Pick<TCatalogFilters, 'q' | 'type' | 'protocol' | 'provider' | 'model'>,
  routeName?: string,
) {
  const account = accountNames(db);
  const q = filters.q?.trim();
  return db
    .select({
      id: aiEndpoints.id,
      accountId: aiEndpoints.accountId,
      routeName: aiEndpoints.routeName,
      name: aiEndpoints.name,
      routeType: aiEndpoints.routeType,
      protocol: aiEndpoints.protocol,
      modelId: aiEndpoints.modelId,
      description: aiEndpoints.description,
      accountName: account.name,
      createdAt: aiEndpoints.createdAt,
      pricePerCall: aiEndpoints.pricePerCall,
      pricePer1mInput: aiEndpoints.pricePer1mInput,
      pricePer1mOutput: aiEndpoints.pricePer1mOutput,
      toolPrices: aiEndpoints.toolPrices,
    })
    .from(aiEndpoints)
    .innerJoin(account, eq(account.id, aiEndpoints.accountId))
    .where(
      listedWhere(
        account,
        routeName ? eq(aiEndpoints.routeName, routeName) : undefined,
        filters.type ? eq(aiEndpoints.routeType, filters.type) : undefined,
        filters.protocol ? eq(aiEndpoints.protocol, filters.protocol) : undefined,
        filters.model ? eq(aiEndpoints.modelId, filters.model) : undefined,
        filters.provider
          ? sql`${aiEndpoints.routeName} like ${likePattern(filters.provider + '/').slice(1)}`
          : undefined,
        q
          ? sql`(${aiEndpoints.routeName} ilike ${likePattern(q)} or ${aiEndpoints.name} ilike ${likePattern(q)}
              or ${account.name} ilike ${likePattern(q)} or ${aiEndpoints.description} ilike ${likePattern(q)})`
          : undefined,
      ),
    ) as Promise<TListed[]>;
}

export function itemOf(
  row: TListed,
  stats: TMarketplaceStats,
  plans: TPlan[],
  summary: boolean,
): TMarketplaceItem {
  const { currency, symbol } = billingCurrency(plans);
  let description = plainText(row.description);
  if (summary && description.length > SUMMARY_CHARS)
    description = `${description.slice(0, SUMMARY_CHARS - 1)}…`;
  return {
    route_name: row.routeName,
    name: row.name,
    route_type: row.routeType,
    protocol: row.protocol,
    provider: { name: row.accountName, slug: slugOf(row.routeName) },
    model_id: row.modelId,
    description,
    price: priceOf(row),
    ...(row.protocol === 'mcp' ? { tool_prices: row.toolPrices ?? {} } : {}),
    currency,
    currency_symbol: symbol,
    stats,
    created_at: row.createdAt.toISOString(),
  };
}

function compareKeys(a: TSortKey, b: TSortKey): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** The sort a cursor belongs to: its name and window (`fastest@30d`). */
const sortTag = (sort: TMarketplaceSort, window: TMarketplaceWindow | undefined) =>
  `${sort}@${window ?? '7d'}`;

function encodeCursor(sort: string, key: TSortKey): string {
  return Buffer.from(JSON.stringify([sort, key[0], key[1]])).toString('base64url');
}

function decodeCursor(sort: string, cursor: string): TSortKey {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      parsed[0] === sort &&
      typeof parsed[1] === 'number' &&
      typeof parsed[2] === 'string'
    )
      return [parsed[1], parsed[2]];
  } catch {
    // falls through to the error below
  }
  throw new AppError('validation', { inputError: 'cursor' });
}

/**
 * One page of `items`: those that pass the figure filters, in the asked sort (`tie` breaking equal
 * figures), after the cursor's key, `limit` at a time; the cursor is the last item's key. The
 * endpoints' catalog and its models page alike.
 */
function sortedPage<T extends TRanked>(
  items: T[],
  filters: Pick<TCatalogFilters, 'sort' | 'limit'> & Parameters<typeof passes>[0],
  tag: string,
  after: TSortKey | null,
  tie: (item: T) => string,
): { items: T[]; next_cursor: string | null } {
  const window = filters.window ?? '7d';
  const keyed = items
    .filter((item) => passes(filters, item))
    .map((item) => ({ item, key: sortKey(filters.sort, window, item, tie(item)) }))
    .filter(({ key }) => !after || compareKeys(key, after) > 0)
    .sort((a, b) => compareKeys(a.key, b.key));
  const page = keyed.slice(0, filters.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(({ item }) => item),
    next_cursor: keyed.length > filters.limit && last ? encodeCursor(tag, last.key) : null,
  };
}

/**
 * A page of the public catalog: the listed endpoints that match, with their 7-day statistics from
 * the per-endpoint daily roll-up (no scan of calls), in the asked order, `limit` at a time (24 unless asked). The
 * cursor is the last item's sort key, so a page never repeats or skips an item that keeps its
 * place.
 */
export async function catalogPage(
  db: TDb,
  plans: TPlan[],
  filters: TCatalogFilters,
  now = Date.now(),
): Promise<TMarketplacePage> {
  const tag = sortTag(filters.sort, filters.window);
  const after = filters.cursor ? decodeCursor(tag, filters.cursor) : null;
  const rows = await listed(db, filters);
  const stats = await statsOf(
    db,
    rows.map((row) => row.id),
    now,
  );
  const items = rows.map((row) => itemOf(row, statsFrom(stats.get(row.id)), plans, true));
  return sortedPage(items, filters, tag, after, (item) => item.route_name);
}

/** An MCP endpoint's snippets (contract 6d), the key read from the caller's environment. */
function mcpSnippetsFor(appUrl: string, routeName: string): TMarketplaceSnippets {
  return buildMcpSnippets({ origin: appUrl, routeName });
}

/**
 * An OpenAI-shape endpoint's snippets: the dashboard's quick-start (one style everywhere, issue 38),
 * with the placeholder key the caller replaces with one of their own.
 */
function snippetsFor(appUrl: string, routeName: string): TMarketplaceSnippets {
  return buildSnippets({ origin: appUrl, apiKey: PLACEHOLDER_KEY, routeName });
}

/**
 * One listed endpoint's page: the catalog item with its full description, 30 days of daily calls
 * and success rate (oldest first, days without calls included) and ready-to-copy snippets. Anything
 * not listed (private, unshared, inactive, a closed account's) is 404.
 */
export async function catalogEndpoint(
  db: TDb,
  plans: TPlan[],
  appUrl: string,
  routeName: string,
  now = Date.now(),
): Promise<TMarketplaceEndpoint> {
  const [row] = await listed(db, {}, routeName);
  if (!row) throw new AppError('not_found');
  const stats = await statsOf(db, [row.id], now);
  const model = row.modelId ? await modelFigures(db, row.modelId, now) : null;
  const from = dayOf(now - (MARKETPLACE_HISTORY_DAYS - 1) * DAY_MS);
  const days = await db
    .select({
      day: endpointDaily.day,
      calls: sql<number>`sum(${endpointDaily.calls})::int`,
      success: sql<number>`coalesce(sum(${endpointDaily.calls}) filter (where ${endpointDaily.statusClass} = 2), 0)::int`,
    })
    .from(endpointDaily)
    .where(and(eq(endpointDaily.endpointId, row.id), sql`${endpointDaily.day} >= ${from}::date`))
    .groupBy(endpointDaily.day);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const daily = Array.from({ length: MARKETPLACE_HISTORY_DAYS }, (_, i) => {
    const day = dayOf(now - (MARKETPLACE_HISTORY_DAYS - 1 - i) * DAY_MS);
    const found = byDay.get(day);
    const calls = Number(found?.calls ?? 0);
    return {
      day,
      calls,
      success_rate: calls === 0 ? null : Math.round((Number(found!.success) / calls) * 10_000) / 10_000,
    };
  });
  return {
    ...itemOf(row, statsFrom(stats.get(row.id)), plans, false),
    description_html: row.description,
    daily,
    snippets:
      row.protocol === 'mcp' ? mcpSnippetsFor(appUrl, row.routeName) : snippetsFor(appUrl, row.routeName),
    model,
  };
}

/**
 * One model across the listed endpoints declaring it (the catalog's own filter: active, shared,
 * public, open accounts): their route names, most called over 7 days first, and their figures
 * combined exactly from the roll-ups (decision 062: calls, histograms and tokens added up, as a
 * provider's page), uptime over the minutes of any of them (some provider up). Null when none is
 * listed (never, for a listed endpoint's own model).
 */
export async function modelFigures(
  db: TDb,
  modelId: string,
  now = Date.now(),
): Promise<TMarketplaceModel | null> {
  const rows = await listed(db, { model: modelId });
  if (rows.length === 0) return null;
  const ids = rows.map((row) => row.id);
  const [stats, minutes] = await Promise.all([statsOf(db, ids, now), modelMinutesOf(db, ids, now)]);
  return modelOf(modelId, rows, stats, minutes.get(modelId));
}

function modelOf(
  modelId: string,
  rows: TListed[],
  stats: Map<string, TWindows>,
  minutes: Parameters<typeof withModelMinutes>[1],
): TMarketplaceModel {
  const routeNames = rows
    .map((row) => ({ name: row.routeName, calls: statsFrom(stats.get(row.id)).calls_7d }))
    .sort((a, b) => b.calls - a.calls || (a.name < b.name ? -1 : 1))
    .map((row) => row.name);
  const windows = combinedWindows(rows.flatMap((row) => stats.get(row.id) ?? []));
  return {
    model_id: modelId,
    providers: rows.length,
    route_names: routeNames,
    stats: statsFrom(withModelMinutes(windows, minutes)),
  };
}

/** A million input and a million output tokens (micros), then a call's price: the catalog's price key. */
const priceRank = (row: TListed) => {
  const price = priceOf(row);
  return price ? price.per_1m_input_tokens + price.per_1m_output_tokens + price.per_call / 1_000_000 : 0;
};

/**
 * A page of the catalog's models (decision 062): every model id the listed endpoints declare
 * (`q` a part of it, any case), each as `modelFigures` has it plus the cheapest provider's price,
 * filtered and sorted by the same figures and cursor as the endpoints' catalog, the model id
 * breaking ties. Four reads whatever the number of models: the endpoints, then their three
 * figure roll-ups and the per-minute uptime of each model, grouped.
 */
export async function modelsPage(
  db: TDb,
  plans: TPlan[],
  filters: TModelsFilters,
  now = Date.now(),
): Promise<TMarketplaceModelsPage> {
  const tag = `models:${sortTag(filters.sort, filters.window)}`;
  const after = filters.cursor ? decodeCursor(tag, filters.cursor) : null;
  const q = filters.q?.trim().toLowerCase();
  const byModel = new Map<string, TListed[]>();
  for (const row of await listed(db, {})) {
    if (row.modelId === null || (q && !row.modelId.includes(q))) continue;
    const group = byModel.get(row.modelId);
    if (group) group.push(row);
    else byModel.set(row.modelId, [row]);
  }
  const ids = [...byModel.values()].flatMap((group) => group.map((row) => row.id));
  const [stats, minutes] = await Promise.all([statsOf(db, ids, now), modelMinutesOf(db, ids, now)]);
  const { currency, symbol } = billingCurrency(plans);
  const items = [...byModel].map(([modelId, rows]): TMarketplaceModelItem => {
    const cheapest = rows.reduce((best, row) => (priceRank(row) < priceRank(best) ? row : best));
    const oldest = rows.reduce((first, row) => (row.createdAt < first.createdAt ? row : first));
    return {
      ...modelOf(modelId, rows, stats, minutes.get(modelId)),
      price: priceOf(cheapest),
      currency,
      currency_symbol: symbol,
      created_at: oldest.createdAt.toISOString(),
    };
  });
  return sortedPage(items, filters, tag, after, (item) => item.model_id);
}
