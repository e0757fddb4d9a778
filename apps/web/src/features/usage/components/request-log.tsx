import { numberFormat } from '@/lib/format-number';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import type { TUsageStatusClass } from '@air/shared/schemas/usage-insight';
import { USAGE_STATUS_CLASSES } from '@air/shared/usage-limits';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format-date';
import { useErrorHandler } from '@/lib/error-handler';
import { fetchRequestLog, type TLogFilters } from '../usage-api';
import { FilterSelect } from '@/components/ui/filter-select';

/**
 * The last 30 days of calls (metadata only, never bodies), filtered by route, key and status class,
 * paged by cursor with "Load more".
 */
export function RequestLog({
  routes,
  keys,
  locale,
}: {
  routes: { id: string; name: string }[];
  keys: { id: string; name: string }[];
  locale: string;
}) {
  const { t } = useTranslation('usage');
  const handleError = useErrorHandler();
  const [filters, setFilters] = React.useState<TLogFilters>({});
  const log = useInfiniteQuery({
    queryKey: ['usage-log', filters],
    queryFn: ({ pageParam, signal }) => fetchRequestLog(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  React.useEffect(() => {
    if (log.error) handleError(log.error);
  }, [log.error, handleError]);
  const items = log.data?.pages.flatMap((page) => page.items) ?? [];
  const number = numberFormat(locale);
  const set = (name: keyof TLogFilters) => (value: string) =>
    setFilters((old) => ({ ...old, [name]: value || undefined }));

  return (
    <section aria-labelledby="request-log" className="space-y-3">
      <h2 id="request-log" className="text-lg font-semibold">
        {t('log.title')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('log.intro')}</p>
      <div className="flex flex-wrap gap-2">
        <FilterSelect
          id="log-route"
          label={t('log.route')}
          value={filters.endpoint_id ?? ''}
          onChange={set('endpoint_id')}
        >
          <option value="">{t('log.all')}</option>
          {routes.map((route) => (
            <option key={route.id} value={route.id}>
              {route.name}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect id="log-key" label={t('log.key')} value={filters.key_id ?? ''} onChange={set('key_id')}>
          <option value="">{t('log.all')}</option>
          {keys.map((key) => (
            <option key={key.id} value={key.id}>
              {key.name}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect
          id="log-status"
          label={t('log.status')}
          value={filters.status ?? ''}
          onChange={(value) =>
            setFilters((old) => ({ ...old, status: (value || undefined) as TUsageStatusClass }))
          }
        >
          <option value="">{t('log.all')}</option>
          {USAGE_STATUS_CLASSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </FilterSelect>
      </div>
      {log.isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">{t('common:loading')}</span>
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-8 animate-pulse rounded bg-muted" />
          ))}
        </div>
      ) : items.length === 0 ? (
        <BlankSlate title={t('log.empty')} text={t('log.emptyText')} />
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <Table aria-label={t('log.title')}>
            <TableHeader>
              <TableRow>
                <TableHead>{t('log.time')}</TableHead>
                <TableHead>{t('log.route')}</TableHead>
                <TableHead>{t('log.key')}</TableHead>
                <TableHead>{t('log.status')}</TableHead>
                <TableHead className="whitespace-nowrap">{t('log.format')}</TableHead>
                <TableHead className="text-right">{t('log.latency')}</TableHead>
                <TableHead className="text-right">{t('log.tokens')}</TableHead>
                <TableHead>{t('log.streamed')}</TableHead>
                <TableHead className="text-right">{t('log.attempts')}</TableHead>
                <TableHead>{t('log.cache')}</TableHead>
                <TableHead>{t('log.error')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((item) => (
                <TableRow key={item.id} data-status={item.status}>
                  <TableCell className="whitespace-nowrap">{formatDateTime(item.time, locale)}</TableCell>
                  <TableCell className="font-mono text-xs">
                    {item.route_name ??
                      (item.endpoint_id !== null
                        ? t('log.deleted')
                        : // A 402 or 429 without endpoint is a refusal for a limit, before routing.
                          item.status === 402 || item.status === 429
                          ? t('log.refusedBeforeRouting')
                          : t('log.unknownRoute'))}
                    {/* A fallback's call names the route the caller asked for (decision 058). */}
                    {item.requested_route_name !== null && (
                      <span className="block text-muted-foreground" data-testid="log-asked">
                        {t('log.askedFor', { route: item.requested_route_name })}
                      </span>
                    )}
                    {/* An MCP tool call names its tool under its route (contract 6d). */}
                    {item.tool !== null && (
                      <span className="block text-muted-foreground" data-testid="log-tool">
                        {item.tool}
                      </span>
                    )}
                  </TableCell>
                  <TableCell>{item.key_name ?? t('log.deleted')}</TableCell>
                  <TableCell>
                    <Badge variant={item.status >= 500 ? 'red' : item.status >= 400 ? 'orange' : 'green'}>
                      {item.status}
                    </Badge>
                  </TableCell>
                  <TableCell className="whitespace-nowrap" data-testid="log-format">
                    {item.client_format === null
                      ? t('log.formatNone')
                      : `${t(`log.formats.${item.client_format}`)} → ${item.upstream_format === null ? t('log.formatNone') : t(`log.formats.${item.upstream_format}`)}`}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {number.format(item.latency_ms)} ms
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {item.prompt_tokens === null && item.completion_tokens === null
                      ? '—'
                      : `${item.tokens_estimated ? '≈' : ''}${number.format(item.prompt_tokens ?? 0)} / ${number.format(item.completion_tokens ?? 0)}`}
                  </TableCell>
                  <TableCell>{item.streamed ? t('log.yes') : t('log.no')}</TableCell>
                  <TableCell className="text-right tabular-nums" data-testid="log-attempts">
                    {number.format(item.attempts)}
                  </TableCell>
                  <TableCell>{item.cache_hit ? t('log.cacheHit') : ''}</TableCell>
                  <TableCell className="font-mono text-xs">{item.error_code ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {log.hasNextPage && (
        <Button variant="outline" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
          {t('log.more')}
        </Button>
      )}
    </section>
  );
}
