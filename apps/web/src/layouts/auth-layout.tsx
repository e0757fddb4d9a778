import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '@/components/layout/logo';
import { PreferencesBar } from '@/components/layout/preferences-bar';
import { useAdoptShell } from '@/app/shell';

/** Two columns: the form on the left, the marketing quote on the right (hidden on small screens). */
export default function AuthLayout() {
  const { t } = useTranslation();
  // On `/` and `/signin` this page replaces the server's static copy of it (decision 034).
  useAdoptShell();
  return (
    <div className="grid min-h-screen lg:grid-cols-2">
      <div className="flex flex-col p-6 md:p-10">
        <div className="flex items-center justify-between gap-2">
          <Logo to="/" />
          <PreferencesBar />
        </div>
        <main id="main" className="flex flex-1 items-center justify-center py-10">
          <div className="w-full max-w-sm">
            <Outlet />
          </div>
        </main>
      </div>
      <aside className="relative hidden flex-col justify-end overflow-hidden bg-zinc-900 p-10 text-zinc-50 lg:flex">
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-[radial-gradient(circle_at_30%_20%,rgba(99,102,241,0.35),transparent_55%),radial-gradient(circle_at_80%_70%,rgba(16,185,129,0.25),transparent_50%)]"
        />
        <blockquote className="relative grid gap-3">
          <p className="text-xl leading-relaxed">“{t('auth.quote')}”</p>
          <footer className="text-sm text-zinc-300">{t('auth.quoteAuthor')}</footer>
        </blockquote>
      </aside>
    </div>
  );
}
