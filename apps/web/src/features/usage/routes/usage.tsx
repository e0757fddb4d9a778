import { numberFormat } from '@/lib/format-number';
import * as React from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { hasPermission } from '@air/shared/permissions';
import type { TUsageInsight, TUsagePeriod } from '@air/shared/schemas/usage-insight';
import { USAGE_PERIODS } from '@air/shared/usage-limits';
import { PageHeading } from '@/components/layout/page-heading';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useErrorHandler } from '@/lib/error-handler';
import { onDemand } from '@/lib/on-demand';
import { useSession } from '@/lib/session';
import { BarChart } from '../components/bar-chart';
import { LimitsReached } from '../components/limits-reached';
import { QuotaCard } from '../components/quota-card';
import { RequestLog } from '../components/request-log';
import { CountTable, Tokens, UsageRowsTable } from '../components/usage-tables';
import { downloadText, usageCsv } from '../csv';
import { monthUsageQuery, usageInsightQuery, type TPeriodChoice } from '../usage-api';
import { FilterSelect } from '@/components/ui/filter-select';
import { formatShortDay } from '@/lib/format-date';

// The spend card's limit form brings the form engine and the shared schemas (about 40 KB gzipped):
// its own chunk, so /account/usage keeps its bundle budget. Asked for as the page mounts, beside
// the page's data, so it is in by the time the figures are (below).
const spendCard = onDemand(() => import('../components/spend-card'));
const SpendCard = React.lazy(() => spendCard.load().then((m) => ({ default: m.SpendCard })));

// The custom period's form is on the form engine too: it loads when Custom is picked.
const CustomPeriodForm = React.lazy(() =>
  import('../components/custom-period-form').then((m) => ({ default: m.CustomPeriodForm })),
);

const STATUS_COLORS = {
  status_2xx: '#16a34a',
  status_4xx: '#f59e0b',
  status_5xx: '#dc2626',
  status_other: '#94a3b8',
};
const SERVED_COLOR = '#6366f1';
/**
 * /account/usage: what flowed through the gateway in a period. Caller view (calls per day by
 * status class, by endpoint and key, tokens, latency), provider view (other accounts' calls to this
 * account's endpoints), this month against the quota, the month's marketplace spend against the
 * spend limit (set here by an owner or admin), CSV of what is shown, and the request log.
 */
export default function UsagePage() {
  const { t, i18n } = useTranslation('usage');
  const locale = i18n.language;
  const { user } = useSession();
  const handleError = useErrorHandler();
  const [choice, setChoice] = React.useState<TPeriodChoice>({ period: 'this_month' });
  const [custom, setCustom] = React.useState({ from: '', to: '' });
  const insight = useQuery(usageInsightQuery(choice));
  // The spend card's figures (usually cached already: the quota banner reads them too); a failed
  // first try does not hold the page back.
  const month = useQuery(monthUsageQuery);
  React.useEffect(() => void spendCard.load().catch(() => undefined), []);
  React.useEffect(() => {
    if (insight.error) handleError(insight.error);
  }, [insight.error, handleError]);
  // The answers are rendered as a transition (React yields to the browser between components),
  // not in the store update's one blocking task or the page's first render; until then the
  // skeleton stays (decision 064).
  const data = React.useDeferredValue(insight.data, null);
  const monthWaiting = React.useDeferredValue(month.isPending && month.failureCount === 0, true);

  function pickPeriod(period: TUsagePeriod) {
    if (period !== 'custom') setChoice({ period });
    else if (custom.from && custom.to) setChoice({ period, ...custom });
    else setChoice((old) => ({ ...old, period: 'custom' }));
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageHeading className="mb-0" />
        <div className="flex flex-wrap items-end gap-2">
          <FilterSelect
            id="usage-period"
            label={t('period.label')}
            value={choice.period}
            onChange={(value) => pickPeriod(value as TUsagePeriod)}
          >
            {USAGE_PERIODS.map((period) => (
              <option key={period} value={period}>
                {t(`period.${period}`)}
              </option>
            ))}
          </FilterSelect>
          {choice.period === 'custom' && (
            <React.Suspense fallback={null}>
              <CustomPeriodForm
                initial={custom}
                onChange={setCustom}
                onApply={(range) => setChoice({ period: 'custom', ...range })}
              />
            </React.Suspense>
          )}
          <Button
            variant="outline"
            disabled={!data}
            onClick={() =>
              data && downloadText(`air-usage-${data.period.from}-${data.period.to}.csv`, usageCsv(data))
            }
          >
            <Download className="size-4" aria-hidden="true" />
            {t('csv')}
          </Button>
        </div>
      </div>
      {data && (
        <p className="text-sm text-muted-foreground" data-testid="usage-period">
          {t('period.showing', { from: data.period.from, to: data.period.to })}
        </p>
      )}
      <LimitsReached />
      {/* The figures, the spend card (its chunk and its data) and the charts appear together, in
          place of a skeleton as tall as the screen: nothing already shown is pushed down (layout
          shift), the request log below included. */}
      {!data || monthWaiting ? (
        <UsageSkeleton label={t('common:loading')} />
      ) : (
        <React.Suspense fallback={<UsageSkeleton label={t('common:loading')} />}>
          <div className="grid gap-4 lg:grid-cols-[1fr_2fr]">
            <QuotaCard
              quota={data.quota}
              locale={locale}
              canUpgrade={hasPermission(user?.permission, 'owner')}
            />
            <Totals data={data} locale={locale} />
          </div>
          <SpendCard locale={locale} canEdit={hasPermission(user?.permission, 'admin')} />
          <CallerView data={data} locale={locale} />
          <ProviderView data={data} locale={locale} />
        </React.Suspense>
      )}
      <RequestLog
        locale={locale}
        routes={(data?.caller.endpoints ?? [])
          .filter((e) => e.endpoint_id)
          .map((e) => ({ id: e.endpoint_id!, name: e.route_name ?? e.endpoint_id! }))}
        keys={(data?.caller.keys ?? [])
          .filter((k) => k.key_id)
          .map((k) => ({ id: k.key_id!, name: k.key_name ?? k.key_id! }))}
      />
    </div>
  );
}

function UsageSkeleton({ label }: { label: string }) {
  return (
    <div role="status" className="space-y-4" data-testid="usage-loading">
      <span className="sr-only">{label}</span>
      <div className="grid gap-4 lg:grid-cols-[1fr_2fr]">
        <div className="h-72 animate-pulse rounded-lg bg-muted" />
        <div className="h-72 animate-pulse rounded-lg bg-muted" />
      </div>
      <div className="h-56 animate-pulse rounded-lg bg-muted" />
      <div className="h-96 animate-pulse rounded-lg bg-muted" />
    </div>
  );
}

function Totals({ data, locale }: { data: TUsageInsight; locale: string }) {
  const { t } = useTranslation('usage');
  const number = numberFormat(locale);
  const totals = data.caller.totals;
  const ms = (value: number | null) => (value === null ? '—' : `${number.format(value)} ms`);
  const stats: [string, React.ReactNode][] = [
    [t('totals.calls'), number.format(totals.calls)],
    ['2xx', number.format(totals.status_2xx)],
    ['4xx', number.format(totals.status_4xx)],
    ['5xx', number.format(totals.status_5xx)],
    [
      t('totals.prompt'),
      <Tokens key="p" value={totals.prompt_tokens} estimated={totals.estimated_calls} locale={locale} />,
    ],
    [
      t('totals.completion'),
      <Tokens key="c" value={totals.completion_tokens} estimated={totals.estimated_calls} locale={locale} />,
    ],
    [t('totals.p50'), ms(totals.latency_p50_ms)],
    [t('totals.p95'), ms(totals.latency_p95_ms)],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{t('totals.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="usage-totals">
          {stats.map(([label, value]) => (
            <div key={label} className="rounded-md border p-2">
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        {totals.estimated_calls > 0 && (
          <p className="mt-2 text-xs text-muted-foreground">
            {t('estimatedNote', { count: totals.estimated_calls })}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function CallerView({ data, locale }: { data: TUsageInsight; locale: string }) {
  const { t } = useTranslation('usage');
  const { caller } = data;
  const labels = React.useMemo(
    () => caller.days.map((d) => formatShortDay(d.day, locale)),
    [caller.days, locale],
  );
  const series = React.useMemo(
    () =>
      (['status_2xx', 'status_4xx', 'status_5xx', 'status_other'] as const)
        .filter((name) => name !== 'status_other' || caller.totals.status_other > 0)
        .map((name) => ({
          label: t(`series.${name}`),
          values: caller.days.map((d) => d[name]),
          color: STATUS_COLORS[name],
        })),
    [caller, t],
  );
  return (
    <section aria-labelledby="caller-view" className="space-y-4">
      <h2 id="caller-view" className="text-lg font-semibold">
        {t('caller.title')}
      </h2>
      {caller.totals.calls === 0 ? (
        <BlankSlate
          title={t('caller.empty')}
          text={t('caller.emptyText')}
          action={
            <Button variant="outline" asChild>
              <Link to="/dashboard">{t('caller.quickStart')}</Link>
            </Button>
          }
        />
      ) : (
        <>
          <Card>
            <CardContent className="pt-6">
              <BarChart
                labels={labels}
                series={series}
                caption={t('caller.chart')}
                firstColumn={t('col.day')}
                locale={locale}
              />
            </CardContent>
          </Card>
          {/* One above the other: eight columns each do not fit side by side beside the account menu. */}
          <div className="grid gap-4">
            <UsageRowsTable
              caption={t('caller.byEndpoint')}
              nameHeader={t('col.route')}
              locale={locale}
              rows={caller.endpoints.map((row) => ({ ...row, name: row.route_name ?? t('log.deleted') }))}
            />
            <UsageRowsTable
              caption={t('caller.byKey')}
              nameHeader={t('col.key')}
              locale={locale}
              rows={caller.keys.map((row) => ({ ...row, name: row.key_name ?? t('log.deleted') }))}
            />
          </div>
        </>
      )}
    </section>
  );
}

function ProviderView({ data, locale }: { data: TUsageInsight; locale: string }) {
  const { t } = useTranslation('usage');
  const { provider } = data;
  const labels = React.useMemo(
    () => provider.days.map((d) => formatShortDay(d.day, locale)),
    [provider.days, locale],
  );
  const series = React.useMemo(
    () => [{ label: t('provider.series'), values: provider.days.map((d) => d.calls), color: SERVED_COLOR }],
    [provider.days, t],
  );
  return (
    <section aria-labelledby="provider-view" className="space-y-4">
      <h2 id="provider-view" className="text-lg font-semibold">
        {t('provider.title')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('provider.intro')}</p>
      {provider.totals.calls === 0 ? (
        <BlankSlate title={t('provider.empty')} text={t('provider.emptyText')} />
      ) : (
        <>
          <Card>
            <CardContent className="pt-6">
              <BarChart
                labels={labels}
                series={series}
                caption={t('provider.chart')}
                firstColumn={t('col.day')}
                locale={locale}
              />
            </CardContent>
          </Card>
          <div className="grid gap-4 xl:grid-cols-2">
            <CountTable
              caption={t('provider.byEndpoint')}
              nameHeader={t('col.route')}
              locale={locale}
              rows={provider.endpoints.map((row) => ({
                name: row.route_name ?? t('log.deleted'),
                calls: row.calls,
              }))}
            />
            <CountTable
              caption={t('provider.byOrg')}
              nameHeader={t('col.org')}
              locale={locale}
              rows={provider.callers.map((row) => ({
                name: row.account_name ?? t('log.deleted'),
                calls: row.calls,
              }))}
            />
          </div>
        </>
      )}
    </section>
  );
}
