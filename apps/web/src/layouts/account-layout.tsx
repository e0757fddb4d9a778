import { Outlet } from 'react-router';
import { AppShell } from '@/layouts/app-shell';
import { AccountNav, type TAccountNavVariant } from '@/components/layout/account-nav';

export function AccountFrame({ variant }: { variant: TAccountNavVariant }) {
  return (
    <AppShell>
      <div className="md:flex md:gap-8">
        <AccountNav variant={variant} />
        <div className="min-w-0 flex-1">
          <Outlet />
        </div>
      </div>
    </AppShell>
  );
}

/** Account pages with the full, permission-filtered sub-navigation. */
export default function AccountLayout() {
  return <AccountFrame variant="full" />;
}
