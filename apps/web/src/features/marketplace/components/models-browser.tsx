import * as React from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Loader2, Search } from 'lucide-react';
import {
  MARKETPLACE_SORTS,
  MARKETPLACE_WINDOWS,
  type TMarketplaceModelItem,
  type TMarketplaceSort,
  type TMarketplaceWindow,
} from '@air/shared/schemas/marketplace';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useErrorHandler } from '@/lib/error-handler';
import { fetchModelsPage, modelsQueryKey, type TModelsFilters } from '../catalog-api';
import { formatRate } from '../catalog-format';
import { PriceLabel } from './price-label';

const selectClass =
  'h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';
/** Typing pauses this long before the models are asked again. */
const SEARCH_DELAY_MS = 250;

const isSort = (value: string | null): value is TMarketplaceSort =>
  (MARKETPLACE_SORTS as readonly string[]).includes(value ?? '');
const isWindow = (value: string | null): value is TMarketplaceWindow =>
  (MARKETPLACE_WINDOWS as readonly string[]).includes(value ?? '');

/**
 * The catalog's models (decision 062): each model id the listed endpoints declare, with its
 * providers, cheapest price and combined figures, searched, sorted and windowed like the
 * endpoints (kept in the address), a row per model linking to the endpoints serving it.
 */
export function ModelsBrowser() {
  const { t } = useTranslation('marketplace');
  const handleError = useErrorHandler();
  const [params, setParams] = useSearchParams();
  const [text, setText] = React.useState(params.get('q') ?? '');
  const [q, setQ] = React.useState(text);
  React.useEffect(() => {
    const timer = setTimeout(() => setQ(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const sortParam = params.get('sort');
  const windowParam = params.get('window');
  const filters: TModelsFilters = {
    q,
    sort: isSort(sortParam) ? sortParam : 'popular',
    window: isWindow(windowParam) ? windowParam : '7d',
  };
  const update = (name: string, value: string) =>
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

  const models = useInfiniteQuery({
    queryKey: modelsQueryKey(filters),
    queryFn: ({ pageParam, signal }) => fetchModelsPage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
  React.useEffect(() => {
    if (models.error) handleError(models.error);
  }, [models.error, handleError]);
  const items = models.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="space-y-6">
      <form
        role="search"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="min-w-0 flex-1 basis-full space-y-1 sm:basis-64">
          <Label htmlFor="models-search">{t('catalog.search')}</Label>
          <div className="relative">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id="models-search"
              type="search"
              className="pl-9 font-mono"
              placeholder={t('catalog.modelPlaceholder')}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="models-sort">{t('catalog.sort')}</Label>
          <select
            id="models-sort"
            className={selectClass}
            value={filters.sort}
            onChange={(event) => update('sort', event.target.value === 'popular' ? '' : event.target.value)}
          >
            {MARKETPLACE_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(`models.sorts.${sort}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="models-window">{t('catalog.window')}</Label>
          <select
            id="models-window"
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
      </form>

      {models.isPending ? (
        <div role="status" className="flex justify-center py-16 text-muted-foreground">
          <Loader2 className="size-8 animate-spin" aria-hidden="true" />
          <span className="sr-only">{t('models.loading')}</span>
        </div>
      ) : items.length === 0 ? (
        <BlankSlate
          title={filters.q ? t('models.noMatchTitle') : t('models.emptyTitle')}
          text={filters.q ? t('models.noMatchText') : t('models.emptyText')}
        />
      ) : (
        <>
          <ModelsTable items={items} window={filters.window} />
          {models.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="outline"
                disabled={models.isFetchingNextPage}
                onClick={() => void models.fetchNextPage()}
              >
                {models.isFetchingNextPage && <Loader2 className="animate-spin" aria-hidden="true" />}
                {t('catalog.more')}
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

/** A row per model: its id (to the endpoints serving it), providers, cheapest price and figures over the window. */
function ModelsTable({ items, window }: { items: TMarketplaceModelItem[]; window: TMarketplaceWindow }) {
  const { t, i18n } = useTranslation('marketplace');
  const none = t('catalog.noData');
  const w = window === '30d' ? '30d' : '7d';
  const rate = (value: number | null) => (value === null ? none : formatRate(value, i18n.language));
  const ms = (value: number | null) =>
    value === null ? none : t('catalog.ms', { value: Math.round(value) });
  const tps = (value: number | null) =>
    value === null
      ? none
      : t('catalog.perSecond', {
          value: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value),
        });
  const count = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const head = 'px-3 py-2 font-normal';
  const cell = 'px-3 py-2 text-right tabular-nums';
  return (
    <div className="overflow-x-auto rounded-md border">
      <table className="w-full text-sm" data-testid="models-table">
        <caption className="sr-only">{t('models.results')}</caption>
        <thead>
          <tr className="text-left text-muted-foreground">
            <th scope="col" className={head}>
              {t('catalog.model')}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t('models.providers')}
            </th>
            <th scope="col" className={head}>
              {t('models.cheapest')}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t(`catalog.calls_${w}`)}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t('catalog.uptime')}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t('catalog.successRate')}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t('catalog.p50')}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t('catalog.ttft')}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t('catalog.tokensPerS')}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((model) => (
            <tr key={model.model_id} className="border-t" data-testid="model-row">
              <th scope="row" className="px-3 py-2 text-left font-normal">
                <Link
                  to={`/marketplace?model=${encodeURIComponent(model.model_id)}`}
                  className="font-mono text-xs break-all underline-offset-2 hover:underline"
                >
                  {model.model_id}
                </Link>
              </th>
              <td className={cell}>{count(model.providers)}</td>
              <td className="px-3 py-2">
                <PriceLabel price={model.price} currency={model.currency} />
              </td>
              <td className={cell}>{count(model.stats[`calls_${w}`])}</td>
              <td className={cell}>{rate(model.stats[`uptime_${w}`])}</td>
              <td className={cell}>{rate(model.stats[`success_rate_${w}`])}</td>
              <td className={cell}>{ms(model.stats[`p50_ms_${w}`])}</td>
              <td className={cell}>{ms(model.stats[`ttft_ms_${w}`])}</td>
              <td className={cell}>{tps(model.stats[`tokens_per_s_${w}`])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
