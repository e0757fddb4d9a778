import * as React from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import type { TBarChartProps } from './bar-chart-types';

// Only the pieces a stacked bar chart needs: Chart.js tree-shakes the rest out of this chunk.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** The canvas half of BarChart, in its own lazily loaded chunk (Chart.js is ~70 KB gzipped). */
export default function BarChartCanvas({ labels, series, dark, locale }: TBarChartProps) {
  const canvas = React.useRef<HTMLCanvasElement>(null);
  React.useEffect(() => {
    if (!canvas.current) return;
    const text = dark ? '#d4d4d8' : '#3f3f46';
    const grid = dark ? 'rgba(255,255,255,0.1)' : 'rgba(0,0,0,0.08)';
    const config: ChartConfiguration<'bar'> = {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s) => ({
          label: s.label,
          data: s.values,
          backgroundColor: s.color,
          borderWidth: 0,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        locale,
        plugins: {
          legend: { labels: { color: text, boxWidth: 12 } },
          tooltip: { mode: 'index', intersect: false },
        },
        scales: {
          x: {
            stacked: true,
            ticks: { color: text, maxRotation: 0, autoSkip: true },
            grid: { display: false },
          },
          y: {
            stacked: true,
            beginAtZero: true,
            ticks: { color: text, precision: 0 },
            grid: { color: grid },
          },
        },
      },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [labels, series, dark, locale]);
  return <canvas ref={canvas} aria-hidden="true" />;
}
