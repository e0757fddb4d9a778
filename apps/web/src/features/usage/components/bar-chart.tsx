import { numberFormat } from '@/lib/format-number';
import type { TBarSeries } from './bar-chart-types';

/** The longest tick not above `max / 4` among 1, 2 and 5 times a power of ten. */
export function niceStep(max: number): number {
  if (max <= 4) return 1;
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  return step;
}

/** At most this many day labels under the bars (a 31-day month would crowd a phone). */
const MAX_LABELS = 6;

/**
 * A stacked bar chart drawn with plain elements (it was Chart.js, ~70 KB gzipped, for this one
 * chart): crisp at any width, themed by the page's CSS, no canvas. The bars are decoration for
 * sighted users (aria-hidden, a tooltip per day); the table (visually hidden, read by screen
 * readers and tests) carries every value.
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
  const number = numberFormat(locale);
  const totals = labels.map((_, row) => series.reduce((sum, s) => sum + (s.values[row] ?? 0), 0));
  const step = niceStep(Math.max(0, ...totals));
  const top = step * Math.max(1, Math.ceil(Math.max(0, ...totals) / step));
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const every = Math.max(1, Math.ceil(labels.length / MAX_LABELS));
  const tip = (row: number) =>
    [labels[row], ...series.map((s) => `${s.label}: ${number.format(s.values[row] ?? 0)}`)].join('\n');
  return (
    <figure className="space-y-2">
      <div aria-hidden="true" className="flex h-56 gap-2 text-xs text-muted-foreground sm:h-64">
        <div className="relative w-10 shrink-0">
          {ticks.map((tick) => (
            <span
              key={tick}
              className="absolute right-0 translate-y-1/2 tabular-nums"
              style={{ bottom: `${(tick / top) * 100}%` }}
            >
              {number.format(tick)}
            </span>
          ))}
        </div>
        <div className="relative flex-1">
          {ticks.map((tick) => (
            <div
              key={tick}
              className="absolute inset-x-0 border-t border-border"
              style={{ bottom: `${(tick / top) * 100}%` }}
            />
          ))}
          <div className="absolute inset-0 flex items-end gap-px" data-testid="bar-chart-bars">
            {labels.map((label, row) => (
              <div key={label} title={tip(row)} className="flex h-full min-w-0 flex-1 flex-col-reverse">
                {series.map((s) => {
                  const value = s.values[row] ?? 0;
                  return value > 0 ? (
                    <div
                      key={s.label}
                      style={{ height: `${(value / top) * 100}%`, backgroundColor: s.color }}
                    />
                  ) : null;
                })}
              </div>
            ))}
          </div>
        </div>
      </div>
      <div aria-hidden="true" className="flex gap-2 text-xs text-muted-foreground">
        <div className="w-10 shrink-0" />
        <div className="flex flex-1 gap-px">
          {labels.map((label, row) => (
            <span key={label} className="min-w-0 flex-1 overflow-visible whitespace-nowrap">
              {row % every === 0 ? label : ''}
            </span>
          ))}
        </div>
      </div>
      <ul aria-hidden="true" className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
        {series.map((s) => (
          <li key={s.label} className="flex items-center gap-1.5">
            <span className="size-3 rounded-sm" style={{ backgroundColor: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
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
