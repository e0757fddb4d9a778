import { numberFormat } from '@/lib/format-number';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TUsageQuota } from '@air/shared/schemas/usage-insight';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PercentBar } from './percent-bar';
import { formatDay } from '@/lib/format-date';

/** This month's calls against the plan's quota, with a progress bar and the projected day. */
export function QuotaCard({
  quota,
  locale,
  canUpgrade,
}: {
  quota: TUsageQuota;
  locale: string;
  canUpgrade: boolean;
}) {
  const { t } = useTranslation('usage');
  const number = numberFormat(locale);
  const percent = quota.percent ?? 0;
  const day = quota.projected_day ? formatDay(quota.projected_day, locale) : null;
  return (
    <Card data-testid="quota-card">
      <CardHeader>
        <CardTitle className="text-base">{t('quota.title', { period: quota.period })}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {quota.quota === null ? (
          <p className="text-sm">{t('quota.none', { calls: number.format(quota.calls) })}</p>
        ) : (
          <>
            <p className="text-sm">
              {t('quota.used', {
                calls: number.format(quota.calls),
                quota: number.format(quota.quota),
                percent,
              })}
            </p>
            <PercentBar percent={percent} label={t('quota.bar')} />
            <p className="text-sm text-muted-foreground">
              {quota.reached
                ? t('quota.reached')
                : day
                  ? t('quota.projected', { day })
                  : t('quota.notProjected')}
            </p>
            {percent >= 80 && canUpgrade && (
              <Link
                className="text-sm font-medium text-primary underline underline-offset-4"
                to="/account/billing"
              >
                {t('quota.upgrade')}
              </Link>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
