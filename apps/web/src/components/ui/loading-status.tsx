import { Loader2 } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * A spinner and what is loading, announced as a status: a page or a list not there yet.
 * `className` lays it out (`inline-flex`, or `flex` with a text size and spacing).
 */
export function LoadingStatus({ label, className }: { label: string; className?: string }) {
  return (
    <p role="status" className={cn('items-center gap-2 text-muted-foreground', className)}>
      <Loader2 className="size-4 animate-spin" aria-hidden="true" />
      {label}
    </p>
  );
}
