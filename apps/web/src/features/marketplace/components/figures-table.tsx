import { useTranslation } from 'react-i18next';
import type { TMarketplaceStats } from '@air/shared/schemas/marketplace';
import { formatRate } from '../catalog-format';

/**
 * The figures callers choose by, over 7 and 30 days side by side (an endpoint's page, a
 * provider's): a table with a row per figure (decision 057).
 */
export function FiguresTable({ stats, caption }: { stats: TMarketplaceStats; caption?: string }) {
  const { t, i18n } = useTranslation('marketplace');
  const none = t('catalog.noData');
  const count = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const rate = (value: number | null) => (value === null ? none : formatRate(value, i18n.language));
  const ms = (value: number | null) =>
    value === null ? none : t('catalog.ms', { value: Math.round(value) });
  const tps = (value: number | null) =>
    value === null
      ? none
      : t('catalog.perSecond', {
          value: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value),
        });
  const rows: Array<[string, string, string]> = [
    [t('catalog.calls'), count(stats.calls_7d), count(stats.calls_30d)],
    [t('catalog.successRate'), rate(stats.success_rate_7d), rate(stats.success_rate_30d)],
    [t('catalog.uptime'), rate(stats.uptime_7d), rate(stats.uptime_30d)],
    [t('catalog.p50'), ms(stats.p50_ms_7d), ms(stats.p50_ms_30d)],
    [t('catalog.p95'), ms(stats.p95_ms_7d), ms(stats.p95_ms_30d)],
    [t('catalog.ttft'), ms(stats.ttft_ms_7d), ms(stats.ttft_ms_30d)],
    [t('catalog.tokensPerS'), tps(stats.tokens_per_s_7d), tps(stats.tokens_per_s_30d)],
  ];
  return (
    <table className="w-full text-sm" data-testid="figures">
      <caption className="sr-only">{caption ?? t('catalog.figures')}</caption>
      <thead>
        <tr className="text-left text-muted-foreground">
          <th scope="col" className="py-1 font-normal">
            {t('catalog.figure')}
          </th>
          <th scope="col" className="py-1 text-right font-normal">
            {t('catalog.windows.7d')}
          </th>
          <th scope="col" className="py-1 text-right font-normal">
            {t('catalog.windows.30d')}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, d7, d30]) => (
          <tr key={label} className="border-t">
            <th scope="row" className="py-1 text-left font-normal text-muted-foreground">
              {label}
            </th>
            <td className="py-1 text-right font-medium tabular-nums">{d7}</td>
            <td className="py-1 text-right font-medium tabular-nums">{d30}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
