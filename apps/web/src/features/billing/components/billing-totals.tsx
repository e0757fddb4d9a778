import { useTranslation } from 'react-i18next';
import type { TSubscription } from '@air/shared/schemas/billing';
import type { TUsageList } from '@air/shared/schemas/usage';
import { formatNumber } from '@/lib/format-number';
import { formatDate, formatMoney } from '../lib/money';

/**
 * Usage and seat totals (spec sections 2 and 9): the seat price is shown divided by 100 and the
 * total is seats times price; this period's gateway calls against the plan's quota.
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
  const interval = subscription
    ? t(`plans.interval.${subscription.interval}`, { defaultValue: subscription.interval })
    : '';
  return (
    <dl className="mb-6 grid gap-4 rounded-lg border p-4 sm:grid-cols-3">
      {subscription && (
        <>
          <div className="grid gap-1">
            <dt className="text-sm text-muted-foreground">{t('totals.plan')}</dt>
            <dd className="font-medium" data-total="plan">
              {subscription.plan_name}
              {subscription.current_period_end && (
                <span className="block text-xs font-normal text-muted-foreground">
                  {t(subscription.cancel_at_period_end ? 'totals.endsOn' : 'totals.renewsOn', {
                    date: formatDate(subscription.current_period_end, locale),
                  })}
                </span>
              )}
            </dd>
          </div>
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
        </>
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
        </dd>
      </div>
    </dl>
  );
}
