import { Outlet } from 'react-router';
import { AppShell } from '@/layouts/app-shell';

/** The default layout (also the account layout's variant with no sub-navigation). */
export default function AppLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
