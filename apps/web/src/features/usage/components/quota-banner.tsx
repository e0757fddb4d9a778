import { formatNumber } from '@/lib/format-number';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { hasPermission } from '@air/shared/permissions';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';
import { monthUsageQuery } from '../usage-api';

/** Past 80 % of this month's quota: a banner on every console page, with the upgrade link for owners. */
export function QuotaBanner() {
  const { t } = useTranslation('usage');
  const { user, signedIn } = useSession();
  // A banner is a hint: a failed fetch shows nothing rather than an error on every page.
  const usage = useQuery({ ...monthUsageQuery, enabled: signedIn, retry: false });
  const calls = usage.data?.find((row) => row.label === 'calls');
  if (!calls || calls.quota === null || calls.quota === 0) return null;
  const percent = Math.floor((calls.total * 100) / calls.quota);
  if (percent < 80) return null;
  const reached = calls.total >= calls.quota;
  const quota = formatNumber(calls.quota);
  return (
    <div
      role="status"
      data-testid="quota-banner"
      className={cn(
        'mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border p-3 text-sm',
        reached
          ? 'border-destructive/50 bg-destructive/10 text-foreground'
          : 'border-amber-500/50 bg-amber-500/10 text-foreground',
      )}
    >
      <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
      <span className="flex-1">
        {reached ? t('banner.reached', { quota }) : t('banner.warning', { percent, quota })}
      </span>
      {hasPermission(user?.permission, 'owner') ? (
        <Link className="font-medium underline underline-offset-4" to="/account/billing">
          {t('banner.upgrade')}
        </Link>
      ) : (
        <span>{t('banner.askOwner')}</span>
      )}
      <Link className="underline underline-offset-4" to="/account/usage">
        {t('banner.details')}
      </Link>
    </div>
  );
}
