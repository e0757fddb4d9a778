import { numberFormat } from '@/lib/format-number';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TUsageQuota } from '@air/shared/schemas/usage-insight';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

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
  const day = quota.projected_day
    ? new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(quota.projected_day),
      )
    : null;
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
            <div
              role="progressbar"
              aria-label={t('quota.bar')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.min(100, percent)}
              aria-valuetext={`${percent}%`}
              className="h-3 w-full overflow-hidden rounded-full bg-muted"
            >
              <div
                className={cn(
                  'h-full rounded-full transition-[width]',
                  percent >= 100 ? 'bg-destructive' : percent >= 80 ? 'bg-amber-500' : 'bg-primary',
                )}
                style={{ width: `${Math.min(100, percent)}%` }}
              />
            </div>
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
