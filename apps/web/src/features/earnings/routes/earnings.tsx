import * as React from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import type { TEarnings, TEarningsRow } from '@air/shared/schemas/marketplace';
import type { TPrice } from '@air/shared/schemas/price';
import { PageHeading } from '@/components/layout/page-heading';
import { DataTable } from '@/components/table/data-table';
import type { TColumn } from '@/components/table/types';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { downloadText } from '@/lib/csv';
import { useErrorHandler } from '@/lib/error-handler';
import { numberFormat } from '@/lib/format-number';
import {
  ALL_PERIODS,
  earningPeriods,
  earningsCsv,
  formatAmount,
  rowsOf,
  totalsOf,
} from '../earnings-figures';
import { earningsQuery, pricedEndpointsQuery } from '../earnings-api';
import { formatMicros } from '@/features/marketplace/catalog-format';
import { FilterSelect } from '@/components/ui/filter-select';
import { LoadingStatus } from '@/components/ui/loading-status';
import { formatMonth } from '@/lib/format-date';

type TLine = TEarningsRow & { id: string };

/** `2026-11` as "November 2026" in the page's language. */
export function monthLabel(period: string, locale: string): string {
  return formatMonth(period, locale);
}

/**
 * /account/earnings (owner): what callers paid for this account's priced endpoints, from their
 * invoices, per month and per route and price: calls, paying accounts, gross, the platform fee and
 * net, with their totals and the same lines as CSV.
 */
export default function EarningsPage() {
  const { t } = useTranslation('earnings');
  const handleError = useErrorHandler();
  const earnings = useQuery(earningsQuery);
  const data = earnings.data;
  React.useEffect(() => {
    if (earnings.error) handleError(earnings.error);
  }, [earnings.error, handleError]);
  const [picked, setPicked] = React.useState<string | null>(null);
  const periods = data ? earningPeriods(data) : [];
  // The newest month until one is picked; a month that no longer has lines falls back to it too.
  const period =
    picked && (picked === ALL_PERIODS || periods.includes(picked)) ? picked : (periods[0] ?? ALL_PERIODS);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageHeading className="mb-0" />
        {data && data.rows.length > 0 && (
          <div className="flex flex-wrap items-end gap-2">
            <PeriodPicker periods={periods} value={period} onChange={setPicked} />
            <Button
              variant="outline"
              onClick={() => downloadText(`air-earnings-${period}.csv`, earningsCsv(data, period))}
            >
              <Download className="size-4" aria-hidden="true" />
              {t('csv')}
            </Button>
          </div>
        )}
      </div>
      {earnings.isPending ? (
        <LoadingStatus className="inline-flex" label={t('loading')} />
      ) : earnings.isError || !data ? (
        <div role="alert">
          <BlankSlate
            title={t('error.title')}
            text={t('error.text')}
            action={
              <Button variant="outline" onClick={() => void earnings.refetch()}>
                {t('error.retry')}
              </Button>
            }
          />
        </div>
      ) : data.rows.length === 0 ? (
        <NoEarnings />
      ) : (
        <Statement data={data} period={period} />
      )}
    </div>
  );
}

function PeriodPicker({
  periods,
  value,
  onChange,
}: {
  periods: string[];
  value: string;
  onChange: (period: string) => void;
}) {
  const { t, i18n } = useTranslation('earnings');
  return (
    <FilterSelect id="earnings-period" label={t('period.label')} value={value} onChange={onChange}>
      {periods.map((period) => (
        <option key={period} value={period}>
          {monthLabel(period, i18n.language)}
        </option>
      ))}
      <option value={ALL_PERIODS}>{t('period.all')}</option>
    </FilterSelect>
  );
}

/**
 * No lines yet. A provider without a priced endpoint is told how to set a price; one with prices
 * is told when earnings appear (callers' invoices are written at their renewals).
 */
function NoEarnings() {
  const { t } = useTranslation('earnings');
  const endpoints = useQuery(pricedEndpointsQuery);
  if (endpoints.isPending) return null;
  const priced = endpoints.data ?? [];
  if (priced.length === 0)
    return (
      <BlankSlate
        title={t('empty.noPriceTitle')}
        text={t('empty.noPriceText')}
        action={
          <Button variant="outline" asChild>
            <Link to="/registry">{t('empty.toRegistry')}</Link>
          </Button>
        }
      />
    );
  return (
    <BlankSlate
      title={t('empty.noChargesTitle')}
      text={t('empty.noChargesText', { count: priced.length })}
      action={
        <Button variant="outline" asChild>
          <Link to="/account/usage">{t('empty.toUsage')}</Link>
        </Button>
      }
    />
  );
}

/** A line's price (micros): each priced part on its line, `$0.002 per call`, `$1.50 per 1M input tokens`. */
function PriceText({ price, currency }: { price: TPrice; currency: string }) {
  const { t, i18n } = useTranslation('earnings');
  const parts = [
    ['perCall', price.per_call],
    ['perInput', price.per_1m_input_tokens],
    ['perOutput', price.per_1m_output_tokens],
  ] as const;
  const shown = parts.filter(([, micros]) => micros > 0);
  if (shown.length === 0) return <>{t('price.free')}</>;
  // One part per line: run together, the three parts wrapped to six lines and more in a column
  // the amounts had squeezed (issue 38).
  return (
    <span className="flex flex-col gap-0.5" data-testid="earnings-price">
      {shown.map(([key, micros], i) => (
        <span key={key}>
          {/* Read (and copied) as one list: "…per 1M input tokens, $6.00 per 1M output tokens". */}
          {i > 0 && <span className="sr-only">, </span>}
          {t(`price.${key}`, { amount: formatMicros(micros, currency, i18n.language) })}
        </span>
      ))}
    </span>
  );
}

/** A route name that may break after its "/" before anywhere else. */
function breakAfterSlash(route: string): React.ReactNode {
  const [owner, ...rest] = route.split('/');
  return rest.length === 0 ? (
    route
  ) : (
    <>
      {owner}/<wbr />
      {rest.join('/')}
    </>
  );
}

function Statement({ data, period }: { data: TEarnings; period: string }) {
  const { t, i18n } = useTranslation('earnings');
  const locale = i18n.language;
  const number = numberFormat(locale);
  const money = (minor: number) => formatAmount(minor, data.currency, locale);
  const rows = rowsOf(data, period);
  const totals = totalsOf(rows);
  const lines: TLine[] = rows.map((row) => ({
    ...row,
    id: `${row.period} ${row.route_name} ${row.price.per_call} ${row.price.per_1m_input_tokens} ${row.price.per_1m_output_tokens}`,
  }));
  // A little less padding than the default: seven columns share the page beside the side menu.
  const cell = 'px-3';
  // Right-aligned and on one line in the table; on a phone's card, after their label like any value
  // (aligned right and unbroken, the labels ran into the amounts).
  const amount = 'px-3 tabular-nums sm:text-right sm:whitespace-nowrap';
  const columns: TColumn<TLine>[] = [
    ...(period === ALL_PERIODS
      ? [
          {
            key: 'period',
            header: t('col.period'),
            sortable: true,
            className: 'px-3 sm:whitespace-nowrap',
            cell: (row: TLine) => monthLabel(row.period, locale),
          } satisfies TColumn<TLine>,
        ]
      : []),
    {
      // The route with its price under it: as two columns the price was squeezed by the amounts
      // into six lines and more (issue 38), and the amounts ran off a 1280 px screen in Spanish.
      key: 'route_name',
      header: t('col.routePrice'),
      sortable: true,
      // Wide enough for each price part on one line in English; a long Spanish part takes two.
      className: `${cell} sm:min-w-52`,
      cell: (row) => (
        <span className="flex flex-col gap-1">
          <span className="font-mono text-xs [overflow-wrap:anywhere]">
            {breakAfterSlash(row.route_name)}
          </span>
          <span className="text-xs text-muted-foreground">
            <span className="sr-only">: </span>
            <PriceText price={row.price} currency={data.currency} />
          </span>
        </span>
      ),
    },
    {
      key: 'calls',
      header: t('col.calls'),
      sortable: true,
      className: amount,
      cell: (row) => number.format(row.calls),
    },
    {
      key: 'paying_accounts',
      header: t('col.paying'),
      sortable: true,
      className: amount,
      cell: (row) => number.format(row.paying_accounts),
    },
    {
      key: 'gross',
      header: t('col.gross'),
      sortable: true,
      className: amount,
      cell: (row) => money(row.gross),
    },
    { key: 'fee', header: t('col.fee'), sortable: true, className: amount, cell: (row) => money(row.fee) },
    { key: 'net', header: t('col.net'), sortable: true, className: amount, cell: (row) => money(row.net) },
  ];
  const figures: [string, string][] = [
    [t('totals.calls'), number.format(totals.calls)],
    [t('totals.gross'), money(totals.gross)],
    [t('totals.fee', { percent: number.format(data.fee_percent) }), money(totals.fee)],
    [t('totals.net'), money(totals.net)],
  ];
  return (
    <>
      <p className="text-sm text-muted-foreground">
        {t('intro', { percent: number.format(data.fee_percent) })}
      </p>
      <section aria-labelledby="earnings-totals" className="space-y-2">
        <h2 id="earnings-totals" className="text-lg font-semibold">
          {period === ALL_PERIODS
            ? t('totals.titleAll')
            : t('totals.title', { period: monthLabel(period, locale) })}
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="earnings-totals">
          {figures.map(([label, value]) => (
            <div key={label} className="rounded-md border p-3">
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <DataTable data={lines} columns={columns} label={t('tableLabel')} pageSize={25} />
    </>
  );
}
