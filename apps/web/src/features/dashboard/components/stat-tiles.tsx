import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAccountOverview } from '@air/shared/schemas/overview';
import { numberFormat } from '@/lib/format-number';
import { cn } from '@/lib/utils';
import { Sparkline } from './sparkline';
import { formatShortDay } from '@/lib/format-date';

function Tile({
  label,
  value,
  note,
  testId,
  children,
}: {
  label: string;
  value: string;
  note: ReactNode;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <div
      className="flex min-w-0 flex-col gap-1 rounded-lg border bg-card p-4 shadow-sm"
      data-testid={`${testId}-tile`}
    >
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </p>
      <p className="text-xs text-muted-foreground">{note}</p>
      {children}
    </div>
  );
}

/** Today, this period with its 30-day trend, the error rate and the median latency. */
export function StatTiles({ overview }: { overview: TAccountOverview }) {
  const { t, i18n } = useTranslation('dashboard');
  const number = numberFormat(i18n.language);
  const percent = numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const since = formatShortDay(overview.period.from, i18n.language);
  const trendTotal = overview.trend.reduce((sum, day) => sum + day.calls, 0);
  const busiest = overview.trend.reduce((max, day) => Math.max(max, day.calls), 0);
  const rate = overview.error_rate;
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Tile
        label={t('overview.callsToday')}
        value={number.format(overview.calls_today)}
        note={t('overview.todayNote')}
        testId="calls-today"
      />
      <Tile
        label={t('overview.callsPeriod')}
        value={number.format(overview.calls_period)}
        note={t('overview.since', { day: since })}
        testId="usage-total"
      >
        <Sparkline
          values={overview.trend.map((day) => day.calls)}
          label={t('overview.trend', {
            days: overview.trend.length,
            total: number.format(trendTotal),
            max: number.format(busiest),
          })}
          className="mt-1 h-8 w-full"
        />
      </Tile>
      <Tile
        label={t('overview.errorRate')}
        value={rate === null ? '—' : percent.format(rate)}
        note={
          rate === null
            ? t('overview.noCalls')
            : t('overview.errorsOf', {
                errors: number.format(overview.errors_period),
                calls: number.format(overview.calls_period),
              })
        }
        testId="error-rate"
      >
        {rate !== null && (
          <div aria-hidden="true" className="mt-1 h-1.5 w-full overflow-hidden rounded-full bg-muted">
            <div
              className={cn('h-full rounded-full', rate >= 0.05 ? 'bg-destructive' : 'bg-primary')}
              style={{ width: `${Math.max(2, Math.min(100, rate * 100))}%` }}
            />
          </div>
        )}
      </Tile>
      <Tile
        label={t('overview.p50')}
        value={
          overview.latency_p50_ms === null
            ? '—'
            : t('overview.ms', { value: number.format(Math.round(overview.latency_p50_ms)) })
        }
        note={overview.latency_p50_ms === null ? t('overview.noCalls') : t('overview.p50Note')}
        testId="latency-p50"
      />
    </div>
  );
}
