import * as React from 'react';
import { Dialog as D } from 'radix-ui';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

export const Sheet = D.Root;
export const SheetTrigger = D.Trigger;
export const SheetClose = D.Close;
export const SheetTitle = D.Title;
export const SheetDescription = D.Description;

/** A drawer: right side by default, max width 60 units (spec section 9). */
export function SheetContent({
  className,
  children,
  side = 'right',
  ...props
}: React.ComponentProps<typeof D.Content> & { side?: 'left' | 'right' }) {
  const { t } = useTranslation();
  return (
    <D.Portal>
      <D.Overlay className="fixed inset-0 z-50 bg-black/60 data-[state=open]:animate-fade-in" />
      <D.Content
        className={cn(
          'fixed inset-y-0 z-50 flex h-full w-3/4 max-w-60 flex-col gap-4 border bg-background p-4 shadow-lg',
          side === 'right' ? 'right-0 data-[state=open]:animate-slide-in-right' : 'left-0',
          className,
        )}
        {...props}
      >
        {children}
        <D.Close
          aria-label={t('dialog.close')}
          className="absolute top-4 right-4 rounded-sm opacity-70 hover:opacity-100 focus:ring-2 focus:ring-ring focus:outline-none"
        >
          <X className="size-4" aria-hidden="true" />
        </D.Close>
      </D.Content>
    </D.Portal>
  );
}
