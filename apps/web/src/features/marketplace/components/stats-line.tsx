import { useTranslation } from 'react-i18next';
import type { TMarketplaceStats } from '@air/shared/schemas/marketplace';
import { formatRate } from '../catalog-format';

/** The 7-day statistics of a catalog item as a small definition list. */
export function StatsLine({ stats }: { stats: TMarketplaceStats }) {
  const { t, i18n } = useTranslation('marketplace');
  const none = t('catalog.noData');
  const items: Array<[string, string]> = [
    [t('catalog.calls7d'), new Intl.NumberFormat(i18n.language).format(stats.calls_7d)],
    [
      t('catalog.success7d'),
      stats.success_rate_7d === null ? none : formatRate(stats.success_rate_7d, i18n.language),
    ],
    [
      t('catalog.p50'),
      stats.p50_ms_7d === null ? none : t('catalog.ms', { value: Math.round(stats.p50_ms_7d) }),
    ],
  ];
  return (
    <dl className="grid grid-cols-3 gap-2 text-xs">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
