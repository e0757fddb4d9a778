import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AppShell, PageLoading } from '@/layouts/app-shell';
import { AccountNav, type TAccountNavVariant } from '@/components/layout/account-nav';

export function AccountFrame({ variant }: { variant: TAccountNavVariant }) {
  const { t } = useTranslation();
  return (
    <AppShell>
      <div className="md:flex md:gap-8">
        <AccountNav variant={variant} />
        <div className="min-w-0 flex-1">
          {/* The sub-navigation stays while the page loads. */}
          <Suspense fallback={<PageLoading label={t('loading')} />}>
            <Outlet />
          </Suspense>
        </div>
      </div>
    </AppShell>
  );
}

/** Account pages with the full, permission-filtered sub-navigation. */
export default function AccountLayout() {
  return <AccountFrame variant="full" />;
}
