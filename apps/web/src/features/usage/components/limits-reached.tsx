import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { OctagonX } from 'lucide-react';
import { hasPermission } from '@air/shared/permissions';
import type { TLimitReached } from '@air/shared/schemas/limits';
import { formatNumber } from '@/lib/format-number';
import { useSession } from '@/lib/session';
import { limitsQuery } from '../limits-api';

/**
 * "Limit reached, calls are refused" (issue 38 item 2) on the dashboard, the usage page and the
 * key list: the spend limit and each key whose cap is used up this period, with how many calls
 * were refused. The plan quota reached is said by the quota banner on every page (QuotaBanner),
 * so it is not said twice here.
 */
export function LimitsReached() {
  const { t } = useTranslation('usage');
  const { user, signedIn } = useSession();
  // A hint beside the page's own figures: a failed fetch shows nothing rather than an error.
  const limits = useQuery({ ...limitsQuery, enabled: signedIn, retry: false });
  const reached = (limits.data?.reached ?? []).filter((limit) => limit.kind !== 'quota');
  if (reached.length === 0) return null;
  const canEditKeys = hasPermission(user?.permission, 'developer');
  return (
    <div
      role="status"
      data-testid="limits-reached"
      className="flex gap-3 rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-foreground"
    >
      <OctagonX className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium">{t('limits.title')}</p>
        <ul className="space-y-1">
          {reached.map((limit) => (
            <li key={`${limit.kind}-${limit.key_id ?? ''}`}>
              <LimitLine limit={limit} canEditKeys={canEditKeys} />
            </li>
          ))}
        </ul>
        {limits.data && limits.data.refused > 0 && (
          <p className="text-muted-foreground">
            {t('limits.refused', { count: limits.data.refused, calls: formatNumber(limits.data.refused) })}
          </p>
        )}
      </div>
    </div>
  );
}

function LimitLine({ limit, canEditKeys }: { limit: TLimitReached; canEditKeys: boolean }) {
  const { t } = useTranslation('usage');
  if (limit.kind === 'spend_limit')
    return (
      <>
        {t('limits.spend')}{' '}
        <Link className="underline underline-offset-4" to="/account/usage">
          {t('limits.spendLink')}
        </Link>
      </>
    );
  return (
    <>
      {t(limit.kind === 'key_budget' ? 'limits.keyBudget' : 'limits.keyCap', { name: limit.key_name ?? '' })}{' '}
      {canEditKeys && limit.key_id && (
        <Link
          className="underline underline-offset-4"
          to={`/account/apikeys/edit?id=${encodeURIComponent(limit.key_id)}`}
        >
          {t('limits.keyLink')}
        </Link>
      )}
    </>
  );
}
