import { cn } from '@/lib/utils';

/**
 * How much of a month's allowance is used, as a progress bar: primary below 80%, amber from 80%,
 * red from 100% (the bar itself stops at full; `aria-valuetext` says the real percent).
 */
export function PercentBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.min(100, percent)}
      aria-valuetext={`${percent}%`}
      className="h-3 w-full overflow-hidden rounded-full bg-muted"
    >
      <div
        className={cn(
          'h-full rounded-full transition-[width]',
          percent >= 100 ? 'bg-destructive' : percent >= 80 ? 'bg-amber-500' : 'bg-primary',
        )}
        style={{ width: `${Math.min(100, percent)}%` }}
      />
    </div>
  );
}
