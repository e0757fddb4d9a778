import { useTranslation } from 'react-i18next';
import type { TMarketplaceDay } from '@air/shared/schemas/marketplace';
import { formatRate } from '../catalog-format';

const WIDTH = 600;
const HEIGHT = 120;

/**
 * 30 days of calls as bars (an SVG that scales to its box), each with its day, calls and success
 * rate as a tooltip; the same figures are in a table for screen readers.
 */
export function DailyChart({ daily }: { daily: TMarketplaceDay[] }) {
  const { t, i18n } = useTranslation('marketplace');
  const max = Math.max(1, ...daily.map((day) => day.calls));
  const slot = WIDTH / Math.max(1, daily.length);
  const numbers = new Intl.NumberFormat(i18n.language);
  const describe = (day: TMarketplaceDay) =>
    t('endpoint.dayTip', {
      day: day.day,
      calls: numbers.format(day.calls),
      rate: day.success_rate === null ? t('catalog.noData') : formatRate(day.success_rate, i18n.language),
    });
  return (
    <figure className="space-y-2">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-32 w-full text-primary"
        preserveAspectRatio="none"
        aria-hidden="true"
        data-testid="daily-chart"
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-border" />
        {daily.map((day, i) => {
          const height = day.calls === 0 ? 0 : Math.max(2, (day.calls / max) * (HEIGHT - 4));
          return (
            <rect
              key={day.day}
              x={i * slot + slot * 0.15}
              y={HEIGHT - height}
              width={slot * 0.7}
              height={height}
              rx="1.5"
              className="fill-current opacity-80"
            >
              <title>{describe(day)}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="flex justify-between text-xs text-muted-foreground">
        <span>{daily[0]?.day}</span>
        <span>{t('endpoint.chartCaption')}</span>
        <span>{daily[daily.length - 1]?.day}</span>
      </figcaption>
      <table className="sr-only">
        <caption>{t('endpoint.chartCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('endpoint.day')}</th>
            <th scope="col">{t('catalog.calls')}</th>
            <th scope="col">{t('catalog.successRate')}</th>
          </tr>
        </thead>
        <tbody>
          {daily.map((day) => (
            <tr key={day.day}>
              <td>{day.day}</td>
              <td>{numbers.format(day.calls)}</td>
              <td>{day.success_rate === null ? '–' : formatRate(day.success_rate, i18n.language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
