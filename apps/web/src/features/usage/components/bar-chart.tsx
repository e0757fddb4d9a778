import { numberFormat } from '@/lib/format-number';
import * as React from 'react';
import { useTheme } from '@/lib/theme';
import type { TBarSeries } from './bar-chart-types';

const BarChartCanvas = React.lazy(() => import('./bar-chart-canvas'));

/**
 * A stacked bar chart with its numbers in a real table: the canvas is decoration for sighted users
 * (aria-hidden), the table (visually hidden, read by screen readers and tests) carries every value.
 * Chart.js loads in its own chunk the first time a chart shows.
 */
export function BarChart({
  labels,
  series,
  caption,
  firstColumn,
  locale,
}: {
  labels: string[];
  series: TBarSeries[];
  caption: string;
  firstColumn: string;
  locale: string;
}) {
  const dark = useTheme() === 'dark';
  const number = numberFormat(locale);
  return (
    <figure className="space-y-2">
      <div className="relative h-56 w-full sm:h-64">
        <React.Suspense fallback={<div className="h-full w-full animate-pulse rounded-md bg-muted" />}>
          <BarChartCanvas labels={labels} series={series} dark={dark} locale={locale} />
        </React.Suspense>
      </div>
      <table className="sr-only">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{firstColumn}</th>
            {series.map((s) => (
              <th key={s.label} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {labels.map((label, row) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {series.map((s) => (
                <td key={s.label}>{number.format(s.values[row] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
