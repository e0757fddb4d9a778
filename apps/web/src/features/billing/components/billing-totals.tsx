import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TSubscription } from '@air/shared/schemas/billing';
import type { TUsageList } from '@air/shared/schemas/usage';
import { formatNumber } from '@/lib/format-number';
import { formatMoney } from '../lib/money';
import { formatDay } from '@/lib/format-date';

const UNPAID = new Set(['requires_payment_method', 'requires_action']);

/** What the plan's line under its name says: when it renews, ends, or is retried; nothing on free. */
function periodText(t: TFunction<'billing'>, sub: TSubscription, locale: string): string | null {
  if (UNPAID.has(sub.status)) {
    return sub.next_attempt_at
      ? t('totals.retryingOn', { date: formatDay(sub.next_attempt_at, locale) })
      : t('totals.paymentDue');
  }
  if (sub.status === 'canceled') return t('totals.canceled');
  // The free plan neither renews nor ends: it has no date to show.
  if (sub.seat_price === 0) return null;
  const date = formatDay(sub.current_period_end, locale);
  return t(sub.cancel_at_period_end ? 'totals.endsOn' : 'totals.renewsOn', { date });
}

/**
 * The plan, its seats and this period's gateway calls against the quota (spec sections 2 and 9:
 * the seat price is shown divided by 100 and the total is seats times price). A paid plan that is
 * unpaid or cancelled runs on the free plan's limits (server contract section 7): the quota shown
 * is the one the gateway enforces, and says so. The free plan shows no seats line ("1 × $0").
 */
export function BillingTotals({
  subscription,
  usage,
}: {
  subscription: TSubscription | null;
  usage: TUsageList;
}) {
  const { t, i18n } = useTranslation('billing');
  const locale = i18n.language;
  const calls = usage.find((row) => row.label === 'calls');
  const paid = Boolean(subscription && subscription.seat_price > 0);
  const limited = Boolean(
    subscription && paid && subscription.status !== 'active' && subscription.status !== 'trialing',
  );
  const interval = subscription
    ? t(`plans.interval.${subscription.interval}`, { defaultValue: subscription.interval })
    : '';
  const period = subscription ? periodText(t, subscription, locale) : null;
  return (
    <dl className="mb-6 grid gap-4 rounded-lg border p-4 sm:grid-cols-3">
      {subscription && (
        <div className="grid gap-1">
          <dt className="text-sm text-muted-foreground">{t('totals.plan')}</dt>
          <dd className="font-medium" data-total="plan">
            {subscription.plan_name}
            {period && (
              <span
                className={
                  limited
                    ? 'block text-xs font-medium text-destructive dark:text-red-300'
                    : 'block text-xs font-normal text-muted-foreground'
                }
              >
                {period}
              </span>
            )}
          </dd>
        </div>
      )}
      {subscription && paid && (
        <div className="grid gap-1">
          <dt className="text-sm text-muted-foreground">{t('totals.seats')}</dt>
          <dd className="font-medium" data-total="seats">
            {t('totals.seatLine', {
              seats: subscription.seats,
              price: formatMoney(subscription.seat_price, subscription.currency_symbol, locale),
            })}
            <span className="block text-xs font-normal text-muted-foreground">
              {t('totals.total', {
                total: formatMoney(
                  subscription.seats * subscription.seat_price,
                  subscription.currency_symbol,
                  locale,
                ),
                interval,
              })}
            </span>
          </dd>
        </div>
      )}
      <div className="grid gap-1">
        <dt className="text-sm text-muted-foreground">{t('totals.usage')}</dt>
        <dd className="font-medium" data-total="usage">
          {calls
            ? calls.quota === null
              ? t('totals.calls', { total: formatNumber(calls.total) })
              : t('totals.callsOfQuota', {
                  total: formatNumber(calls.total),
                  quota: formatNumber(calls.quota),
                })
            : t('totals.noUsage')}
          {limited && (
            <span className="block text-xs font-normal text-muted-foreground" data-limited>
              {t('totals.freeLimits')}
            </span>
          )}
        </dd>
      </div>
    </dl>
  );
}
