import * as React from 'react';
import { Tooltip as T } from 'radix-ui';
import { cn } from '@/lib/utils';

/** Spec section 2: tooltips open after 700 ms, and 300 ms skip delay between neighbours. */
export function TooltipProvider({ children }: { children: React.ReactNode }) {
  return (
    <T.Provider delayDuration={700} skipDelayDuration={300}>
      {children}
    </T.Provider>
  );
}

export const Tooltip = T.Root;
export const TooltipTrigger = T.Trigger;

export function TooltipContent({
  className,
  sideOffset = 6,
  ...props
}: React.ComponentProps<typeof T.Content>) {
  return (
    <T.Portal>
      <T.Content
        sideOffset={sideOffset}
        className={cn(
          'z-50 rounded-md bg-primary px-3 py-1.5 text-xs text-primary-foreground shadow-md',
          className,
        )}
        {...props}
      />
    </T.Portal>
  );
}
