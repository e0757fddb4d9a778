import { Suspense, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AppProviders } from '@/app/providers';
import { useRouteHandle } from '@/app/route-handle';
import { checkAuth } from '@/lib/session';

/** Keeps document.title on the current page's title, in the current language. */
function TitleSync() {
  const handle = useRouteHandle();
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = handle ? `${t(`title.${handle.title}`)} | AIR` : 'AIR';
  }, [handle, t, i18n.language]);
  return null;
}

/** Runs the auth check once per load (spec section 4): not authenticated means signed out. */
function AuthCheck() {
  const navigate = useNavigate();
  useEffect(() => {
    void checkAuth((to) => void navigate(to));
  }, [navigate]);
  return null;
}

export function Root() {
  return (
    <AppProviders>
      <TitleSync />
      <AuthCheck />
      {/* A page waiting for its translation catalogue shows nothing rather than raw keys. */}
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </AppProviders>
  );
}
