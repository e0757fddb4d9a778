import { useTranslation } from 'react-i18next';
import type { TMarketplaceStats, TMarketplaceWindow } from '@air/shared/schemas/marketplace';
import { formatRate } from '../catalog-format';

/**
 * An item's figures over one window (7 or 30 days) as a small definition list: calls, success,
 * uptime, median and p95 latency, time to first token and tokens per second (decision 057).
 */
export function StatsLine({
  stats,
  window = '7d',
  full = false,
}: {
  stats: TMarketplaceStats;
  window?: TMarketplaceWindow;
  /** Every figure (an endpoint's or provider's page); a card shows the main five. */
  full?: boolean;
}) {
  const { t, i18n } = useTranslation('marketplace');
  const none = t('catalog.noData');
  const w = window === '30d' ? '30d' : '7d';
  const rate = (value: number | null) => (value === null ? none : formatRate(value, i18n.language));
  const ms = (value: number | null) =>
    value === null ? none : t('catalog.ms', { value: Math.round(value) });
  const items: Array<[string, string]> = [
    [t(`catalog.calls_${w}`), new Intl.NumberFormat(i18n.language).format(stats[`calls_${w}`])],
    [t('catalog.successRate'), rate(stats[`success_rate_${w}`])],
    [t('catalog.uptime'), rate(stats[`uptime_${w}`])],
    [t('catalog.p50'), ms(stats[`p50_ms_${w}`])],
    [t('catalog.p95'), ms(stats[`p95_ms_${w}`])],
  ];
  if (full) {
    const tps = stats[`tokens_per_s_${w}`];
    items.push(
      [t('catalog.ttft'), ms(stats[`ttft_ms_${w}`])],
      [
        t('catalog.tokensPerS'),
        tps === null
          ? none
          : t('catalog.perSecond', {
              value: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(tps),
            }),
      ],
    );
  }
  return (
    <dl className="grid grid-cols-2 gap-2 text-xs sm:grid-cols-3">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
