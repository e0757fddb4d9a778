/**
 * A trend as a small inline SVG line with its area (no chart library on the dashboard). Scales to
 * its box; the line keeps its width at any size. The label carries the figures for screen readers.
 */
export function Sparkline({
  values,
  label,
  className,
}: {
  values: number[];
  label: string;
  className?: string;
}) {
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? 100 / (values.length - 1) : 100;
  // 2 units of padding top and bottom so a flat line at 0 or at the peak stays visible.
  const points = values.map((value, i) => `${(i * step).toFixed(2)},${(22 - (value / max) * 20).toFixed(2)}`);
  const line = points.join(' ');
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox="0 0 100 24"
      preserveAspectRatio="none"
      className={className}
      data-testid="sparkline"
    >
      {values.length > 0 && (
        <>
          <polygon points={`0,24 ${line} 100,24`} className="fill-primary/15" />
          <polyline
            points={line}
            fill="none"
            className="stroke-primary"
            strokeWidth={1.5}
            strokeLinejoin="round"
            vectorEffect="non-scaling-stroke"
          />
        </>
      )}
    </svg>
  );
}
