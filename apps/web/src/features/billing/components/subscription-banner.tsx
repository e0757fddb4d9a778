import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, XCircle } from 'lucide-react';
import { cn } from '@/lib/utils';

const BANNERS = {
  requires_payment_method: { tone: 'error', key: 'paymentFailed' },
  requires_action: { tone: 'warning', key: 'requiresAction' },
  canceled: { tone: 'error', key: 'canceled' },
} as const;

/**
 * The subscription banner (spec section 4): none for active and trialing; an error when a payment
 * failed (update the card), a warning when the bank wants an authorisation, an error when the
 * subscription is canceled (choose a new plan).
 */
export function SubscriptionBanner({
  status,
  children,
}: {
  status: string | null | undefined;
  /** What the user can do about it (the requires_action banner's "Authorize payment"). */
  children?: ReactNode;
}) {
  const { t } = useTranslation('billing');
  const banner = status ? BANNERS[status as keyof typeof BANNERS] : undefined;
  if (!banner) return null;
  const Icon = banner.tone === 'error' ? XCircle : AlertTriangle;
  return (
    <div
      role="alert"
      data-banner={status}
      className={cn(
        'mb-6 flex gap-3 rounded-lg border p-4 text-sm',
        banner.tone === 'error'
          ? 'border-destructive/50 bg-destructive/10 text-destructive dark:text-red-300'
          : 'border-orange-300 bg-orange-50 text-orange-900 dark:border-orange-800 dark:bg-orange-950/40 dark:text-orange-200',
      )}
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="grid gap-1">
        <p className="font-semibold">{t(`banner.${banner.key}.title`)}</p>
        <p>{t(`banner.${banner.key}.text`)}</p>
        {children}
      </div>
    </div>
  );
}
