import { Outlet } from 'react-router';
import { Logo } from '@/components/layout/logo';
import { PreferencesBar } from '@/components/layout/preferences-bar';

/** The single-column variant of the auth layout, for status pages (social, magic link, impersonation). */
export default function AuthCentredLayout() {
  return (
    <div className="flex min-h-screen flex-col items-center p-6">
      <div className="flex w-full max-w-md items-center justify-between">
        <Logo to="/" />
        <PreferencesBar />
      </div>
      <main id="main" className="flex w-full max-w-md flex-1 items-center justify-center py-10">
        <div className="w-full">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
