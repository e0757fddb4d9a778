import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, XCircle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { formatDay } from '@/lib/format-date';

const BANNERS = {
  requires_payment_method: { tone: 'error', key: 'paymentFailed' },
  requires_action: { tone: 'warning', key: 'requiresAction' },
  canceled: { tone: 'error', key: 'canceled' },
} as const;

/**
 * The subscription banner (spec section 4): none for active and trialing; an error when a payment
 * failed (when it is tried again, and "Update card"), a warning when the bank wants an
 * authorisation (its button, and "Update card"), an error when the subscription is canceled
 * ("Choose a plan"). Each banner carries the action that mends it.
 */
export function SubscriptionBanner({
  status,
  nextAttemptAt,
  onUpdateCard,
  onChoosePlan,
  children,
}: {
  status: string | null | undefined;
  /** When the unpaid renewal is tried again on the card on file (null: no retry left). */
  nextAttemptAt?: string | null | undefined;
  /** Opens the Card tab's form (the page moves focus to it). */
  onUpdateCard: () => void;
  /** Opens the Plan tab. */
  onChoosePlan: () => void;
  /** What else the user can do about it (the requires_action banner's "Authorize payment"). */
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation('billing');
  const banner = status ? BANNERS[status as keyof typeof BANNERS] : undefined;
  if (!banner) return null;
  const Icon = banner.tone === 'error' ? XCircle : AlertTriangle;
  const unpaid = status !== 'canceled';
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
        {unpaid && (
          <p data-next-attempt>
            {nextAttemptAt
              ? t('banner.nextAttempt', { date: formatDay(nextAttemptAt, i18n.language) })
              : t('banner.noRetry')}
          </p>
        )}
        <div className="mt-2 flex flex-wrap items-center gap-2">
          {children}
          {unpaid ? (
            <Button type="button" variant={children ? 'outline' : 'default'} onClick={onUpdateCard}>
              {t('card.update')}
            </Button>
          ) : (
            <Button type="button" onClick={onChoosePlan}>
              {t('banner.canceled.choose')}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
