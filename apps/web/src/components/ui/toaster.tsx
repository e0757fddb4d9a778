import { Toast } from 'radix-ui';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cva } from 'class-variance-authority';
import { cn } from '@/lib/utils';
import { TOAST_DURATION, useToast, dispatch } from '@/components/ui/use-toast';

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-md border p-4 pr-8 shadow-lg transition-all data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none data-[state=open]:animate-fade-in data-[state=closed]:opacity-0',
  {
    variants: {
      variant: {
        default: 'border-border bg-background text-foreground',
        success: 'border-success bg-success text-success-foreground',
        info: 'border-info bg-info text-info-foreground',
        error: 'border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

/** Renders the toast store (spec section 9: 5 s auto-close, swipe 50 px, F8 hotkey, 420 px max on md+). */
export function Toaster() {
  const { toasts } = useToast();
  const { t } = useTranslation();
  return (
    <Toast.Provider
      duration={TOAST_DURATION}
      swipeDirection="right"
      swipeThreshold={50}
      label={t('toast.provider')}
    >
      {toasts.map(({ id, title, description, variant, open }) => (
        <Toast.Root
          key={id}
          open={open}
          onOpenChange={(next) => {
            if (!next) dispatch({ type: 'DISMISS', id });
          }}
          className={toastVariants({ variant })}
        >
          <div className="grid gap-1">
            {title && <Toast.Title className="text-sm font-semibold">{title}</Toast.Title>}
            {description && <Toast.Description className="text-sm">{description}</Toast.Description>}
          </div>
          <Toast.Close
            aria-label={t('toast.close')}
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus:ring-2 focus:outline-none"
          >
            <X className="size-4" aria-hidden="true" />
          </Toast.Close>
        </Toast.Root>
      ))}
      {/* Phones: under the header. Wider: bottom right, above the floating feedback button (40 px
          at 16 px from the edge), so neither covers the other. */}
      <Toast.Viewport
        hotkey={['F8']}
        label={t('toast.label', { hotkey: '{hotkey}' })}
        className={cn(
          'fixed top-14 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none sm:top-auto sm:right-0 sm:bottom-14 md:max-w-[420px]',
        )}
      />
    </Toast.Provider>
  );
}
