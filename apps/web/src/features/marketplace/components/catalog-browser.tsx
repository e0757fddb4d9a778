import * as React from 'react';
import { Link, useLocation, useNavigation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Loader2, Search } from 'lucide-react';
import {
  MARKETPLACE_SORTS,
  MARKETPLACE_WINDOWS,
  type TMarketplaceSort,
  type TMarketplaceWindow,
} from '@air/shared/schemas/marketplace';
import { ROUTE_TYPES, type TRouteType } from '@air/shared/schemas/aiendpoint';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useErrorHandler } from '@/lib/error-handler';
import { useSession } from '@/lib/session';
import { catalogQueryKey, fetchCatalogPage, type TCatalogFilters } from '../catalog-api';
import { formatRate } from '../catalog-format';
import { CatalogCard } from './catalog-card';

const selectClass =
  'h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';
/** Typing pauses this long before the catalog is asked again. */
const SEARCH_DELAY_MS = 250;

const isSort = (value: string | null): value is TMarketplaceSort =>
  (MARKETPLACE_SORTS as readonly string[]).includes(value ?? '');
const isWindow = (value: string | null): value is TMarketplaceWindow =>
  (MARKETPLACE_WINDOWS as readonly string[]).includes(value ?? '');
/** The uptime and p95 thresholds the filters offer. */
const UPTIMES = ['0.99', '0.95', '0.9'];
const P95S = ['500', '1000', '2000', '5000'];
/** The first-token (ms), tokens-per-second and price (micros per million tokens) thresholds. */
const TTFTS = ['250', '500', '1000', '2000'];
const THROUGHPUTS = ['10', '25', '50', '100'];
const PRICES = ['500000', '1000000', '5000000', '10000000'];
const pick = (value: string | null, among: string[]) => (value && among.includes(value) ? value : '');
const isType = (value: string | null): value is TRouteType =>
  (ROUTE_TYPES as readonly string[]).includes(value ?? '');

/**
 * The catalog: search as you type, type and sort filters (kept in the address, so a filtered view
 * can be shared), cards 24 at a time with "Show more". `provider` fixes the provider (its page).
 */
export function CatalogBrowser({ provider = '' }: { provider?: string }) {
  const { t, i18n } = useTranslation('marketplace');
  const handleError = useErrorHandler();
  const [params, setParams] = useSearchParams();
  const [text, setText] = React.useState(params.get('q') ?? '');
  const [q, setQ] = React.useState(text);
  React.useEffect(() => {
    const timer = setTimeout(() => setQ(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const modelParam = params.get('model') ?? '';
  // The text typed in the Model field (and the address it was typed over); the address wins when
  // it names another model since (a card's link).
  const [modelDraft, setModelDraft] = React.useState<{ text: string; param: string } | null>(null);
  const modelText =
    modelDraft && (modelDraft.param === modelParam || modelDraft.text.trim() === modelParam)
      ? modelDraft.text
      : modelParam;

  const typeParam = params.get('type');
  const sortParam = params.get('sort');
  const filters: TCatalogFilters = {
    q,
    provider,
    model: modelParam,
    type: isType(typeParam) ? typeParam : '',
    sort: isSort(sortParam) ? sortParam : 'popular',
    window: isWindow(params.get('window')) ? (params.get('window') as TMarketplaceWindow) : '7d',
    minUptime: pick(params.get('min_uptime'), UPTIMES),
    maxP95: pick(params.get('max_p95_ms'), P95S),
    maxTtft: pick(params.get('max_ttft_ms'), TTFTS),
    minThroughput: pick(params.get('min_tokens_per_s'), THROUGHPUTS),
    maxPrice: pick(params.get('max_price_1m'), PRICES),
  };
  const filtered = Boolean(
    filters.q ||
    filters.model ||
    filters.type ||
    filters.minUptime ||
    filters.maxP95 ||
    filters.maxTtft ||
    filters.minThroughput ||
    filters.maxPrice,
  );
  const decimals = new Intl.NumberFormat(i18n.language, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  // A link followed while the search text settles (its page still loading): writing the address now
  // would start a navigation of its own and cancel the one the user asked for.
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const leaving = navigation.state !== 'idle' && navigation.location?.pathname !== pathname;
  const update = (name: string, value: string) =>
    !leaving &&
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  React.useEffect(() => {
    if ((params.get('q') ?? '') !== q) update('q', q);
    // Only the settled search text goes into the address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q]);
  React.useEffect(() => {
    if (modelText.trim() === modelParam) return;
    const timer = setTimeout(() => update('model', modelText.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // Only the settled model text goes into the address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [modelText]);

  const catalog = useInfiniteQuery({
    queryKey: catalogQueryKey(filters),
    queryFn: ({ pageParam, signal }) => fetchCatalogPage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
  React.useEffect(() => {
    if (catalog.error) handleError(catalog.error);
  }, [catalog.error, handleError]);

  const items = catalog.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="space-y-6">
      <form
        role="search"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="min-w-0 flex-1 basis-full space-y-1 sm:basis-64">
          <Label htmlFor="catalog-search">{t('catalog.search')}</Label>
          <div className="relative">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id="catalog-search"
              type="search"
              className="pl-9"
              placeholder={t('catalog.searchPlaceholder')}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="catalog-model">{t('catalog.model')}</Label>
          <Input
            id="catalog-model"
            className="w-56 font-mono"
            placeholder={t('catalog.modelPlaceholder')}
            value={modelText}
            onChange={(event) => setModelDraft({ text: event.target.value, param: modelParam })}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="catalog-type">{t('catalog.type')}</Label>
          <select
            id="catalog-type"
            className={selectClass}
            value={filters.type}
            onChange={(event) => update('type', event.target.value)}
          >
            <option value="">{t('catalog.allTypes')}</option>
            {ROUTE_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`type.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="catalog-sort">{t('catalog.sort')}</Label>
          <select
            id="catalog-sort"
            className={selectClass}
            value={filters.sort}
            onChange={(event) => update('sort', event.target.value === 'popular' ? '' : event.target.value)}
          >
            {MARKETPLACE_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(`catalog.sorts.${sort}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="catalog-window">{t('catalog.window')}</Label>
          <select
            id="catalog-window"
            className={selectClass}
            value={filters.window}
            onChange={(event) => update('window', event.target.value === '7d' ? '' : event.target.value)}
          >
            {MARKETPLACE_WINDOWS.map((window) => (
              <option key={window} value={window}>
                {t(`catalog.windows.${window}`)}
              </option>
            ))}
          </select>
        </div>
        <ThresholdSelect
          id="catalog-uptime"
          label={t('catalog.minUptime')}
          value={filters.minUptime}
          onChange={(value) => update('min_uptime', value)}
          options={UPTIMES.map((value) => [
            value,
            t('catalog.atLeast', { value: formatRate(Number(value), i18n.language) }),
          ])}
        />
        <ThresholdSelect
          id="catalog-p95"
          label={t('catalog.maxP95')}
          value={filters.maxP95}
          onChange={(value) => update('max_p95_ms', value)}
          options={P95S.map((value) => [value, t('catalog.atMost', { value: t('catalog.ms', { value }) })])}
        />
        <ThresholdSelect
          id="catalog-ttft"
          label={t('catalog.ttft')}
          value={filters.maxTtft}
          onChange={(value) => update('max_ttft_ms', value)}
          options={TTFTS.map((value) => [value, t('catalog.atMost', { value: t('catalog.ms', { value }) })])}
        />
        <ThresholdSelect
          id="catalog-throughput"
          label={t('catalog.tokensPerS')}
          value={filters.minThroughput}
          onChange={(value) => update('min_tokens_per_s', value)}
          options={THROUGHPUTS.map((value) => [
            value,
            t('catalog.atLeast', { value: t('catalog.perSecond', { value }) }),
          ])}
        />
        <ThresholdSelect
          id="catalog-price"
          label={t('catalog.maxPrice')}
          value={filters.maxPrice}
          onChange={(value) => update('max_price_1m', value)}
          options={PRICES.map((value) => [
            value,
            t('catalog.atMost', { value: decimals.format(Number(value) / 1_000_000) }),
          ])}
        />
      </form>

      {catalog.isPending ? (
        <div role="status" className="flex justify-center py-16 text-muted-foreground">
          <Loader2 className="size-8 animate-spin" aria-hidden="true" />
          <span className="sr-only">{t('catalog.loading')}</span>
        </div>
      ) : items.length === 0 ? (
        <BlankSlate
          title={filtered ? t('catalog.noMatchTitle') : t('emptyTitle')}
          text={filtered ? t('catalog.noMatchText') : t('emptyText')}
          action={filtered ? undefined : <EmptyCatalogAction />}
        />
      ) : (
        <>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t('catalog.results')}>
            {items.map((item) => (
              <li key={item.route_name}>
                <CatalogCard item={item} window={filters.window} />
              </li>
            ))}
          </ul>
          {catalog.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="outline"
                disabled={catalog.isFetchingNextPage}
                onClick={() => void catalog.fetchNextPage()}
              >
                {catalog.isFetchingNextPage && <Loader2 className="animate-spin" aria-hidden="true" />}
                {t('catalog.more')}
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

/** One threshold filter: "Any" or one of `options` ([value, label]), kept in the address by the caller. */
function ThresholdSelect({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: Array<[string, string]>;
}) {
  const { t } = useTranslation('marketplace');
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className={selectClass}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{t('catalog.any')}</option>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** An empty catalog asks to fill it: a member shares from the registry, a visitor signs up first. */
function EmptyCatalogAction() {
  const { t } = useTranslation('marketplace');
  const { signedIn } = useSession();
  return (
    <Button asChild size="sm">
      {signedIn ? (
        <Link to="/registry">{t('emptyAction')}</Link>
      ) : (
        <Link to="/signup">{t('emptyActionSignedOut')}</Link>
      )}
    </Button>
  );
}
