import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@air/shared/permissions';
import type { TRole } from '@air/shared/permissions';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';

export type TAccountNavVariant = 'full' | 'basic';

interface TAccountNavEntry {
  key: string;
  to: string;
  permission: TRole;
  /** Pages reached from this section that belong to it (highlighted as it). */
  also?: readonly string[];
}

/** Spec sections 2 and 6: each entry needs its permission. */
export const ACCOUNT_NAV: readonly TAccountNavEntry[] = [
  { key: 'profile', to: '/account/profile', permission: 'user' },
  { key: 'password', to: '/account/password', permission: 'user' },
  { key: 'twoFactor', to: '/account/2fa', permission: 'user' },
  { key: 'usage', to: '/account/usage', permission: 'user' },
  { key: 'billing', to: '/account/billing', permission: 'owner', also: ['/account/upgrade'] },
  { key: 'earnings', to: '/account/earnings', permission: 'owner' },
  { key: 'payouts', to: '/account/payouts', permission: 'owner' },
  { key: 'notifications', to: '/account/notifications', permission: 'user' },
  { key: 'apikeys', to: '/account/apikeys', permission: 'developer' },
  { key: 'users', to: '/account/users', permission: 'admin' },
  { key: 'webhooks', to: '/account/webhooks', permission: 'admin' },
];
const BASIC = new Set(['profile', 'password', 'twoFactor']);

export function accountNavEntries(
  permission: Partial<Record<TRole, boolean>> | null | undefined,
  variant: TAccountNavVariant,
): TAccountNavEntry[] {
  return ACCOUNT_NAV.filter(
    (entry) => (variant === 'full' || BASIC.has(entry.key)) && hasPermission(permission, entry.permission),
  );
}

/** A dropdown on small screens, a side list on wide ones. */
export function AccountNav({ variant = 'full' }: { variant?: TAccountNavVariant }) {
  const { user } = useSession();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const entries = accountNavEntries(user?.permission, variant);
  const current =
    entries.find((entry) => [entry.to, ...(entry.also ?? [])].some((to) => pathname.startsWith(to)))?.to ??
    '';

  return (
    <>
      <label className="mb-4 grid gap-1 text-sm font-medium md:hidden">
        <span className="sr-only">{t('accountNav.label')}</span>
        <select
          value={current}
          onChange={(event) => void navigate(event.target.value)}
          className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {current === '' && <option value="">{t('accountNav.choose')}</option>}
          {entries.map((entry) => (
            <option key={entry.key} value={entry.to}>
              {t(`accountNav.${entry.key}`)}
            </option>
          ))}
        </select>
      </label>
      <nav aria-label={t('accountNav.label')} className="hidden w-48 shrink-0 md:block">
        <ul className="flex flex-col gap-1">
          {entries.map((entry) => (
            <li key={entry.key}>
              <Link
                to={entry.to}
                // The upgrade page is part of Billing: marked current there too.
                aria-current={entry.to === current ? 'page' : undefined}
                className={cn(
                  'block rounded-md px-3 py-2 text-sm font-medium hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  entry.to === current ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
                )}
              >
                {t(`accountNav.${entry.key}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
