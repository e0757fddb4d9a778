import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Toaster as Sonner, toast } from 'sonner';
import { useTheme } from '@/lib/theme';
import { TOAST_DURATION, TOAST_LIMIT, attachToaster } from '@/components/ui/use-toast';

// The console's colours, not sonner's: each variant is a token pair that meets WCAG AA in both
// themes (styles.css), as the Radix toasts before it did.
const base =
  'group pointer-events-auto relative flex w-full items-start gap-3 rounded-md border p-4 pr-8 shadow-lg text-sm';
const CLASSES = {
  // Colours per variant only: two background classes on one toast would leave the winner to the
  // stylesheet's order.
  toast: base,
  default: 'border-border bg-background text-foreground',
  success: 'border-success bg-success text-success-foreground',
  info: 'border-info bg-info text-info-foreground',
  error: 'border-destructive bg-destructive text-destructive-foreground',
  title: 'font-semibold',
  description: 'mt-1 !text-current',
  closeButton:
    '!absolute !top-2 !right-2 !left-auto !transform-none rounded-md !border-0 !bg-transparent p-1 !text-current opacity-70 hover:opacity-100 focus:ring-2 focus:outline-none',
};

/**
 * Sonner's toaster (spec section 9: 5 s auto-close, at most 3, swipe to dismiss, F8 hotkey, 420 px
 * max on wide screens). Bottom right, 64 px up: clear of the floating feedback button (40 px at
 * 16 px from the corner) on phones and desktops alike.
 */
export function Toaster() {
  const { t } = useTranslation();
  const theme = useTheme();
  // After sonner's own effect has subscribed (a child's effects run first), toasts asked for
  // before the toaster loaded are shown.
  useEffect(() => attachToaster(toast), []);
  return (
    <Sonner
      theme={theme}
      position="bottom-right"
      duration={TOAST_DURATION}
      visibleToasts={TOAST_LIMIT}
      hotkey={['F8']}
      // Sonner appends the hotkey: "Notifications F8".
      containerAriaLabel={t('toast.label')}
      closeButton
      offset={{ bottom: 64, right: 16 }}
      mobileOffset={{ bottom: 64, left: 16, right: 16 }}
      toastOptions={{ unstyled: true, classNames: CLASSES, closeButtonAriaLabel: t('toast.close') }}
    />
  );
}
