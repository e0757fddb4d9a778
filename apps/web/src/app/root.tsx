import { Suspense, useEffect, useEffectEvent } from 'react';
import { Outlet, useLocation, useNavigate, useRevalidator } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AppProviders } from '@/app/providers';
import { useRouteHandle } from '@/lib/route-handle';
import { checkAuth, getSession } from '@/lib/session';

/** Keeps document.title on the current page's title, in the current language. */
function TitleSync() {
  const handle = useRouteHandle();
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = handle ? `${t(`title.${handle.title}`)} | AIR` : 'AIR';
  }, [handle, t, i18n.language]);
  return null;
}

/** The least time between two auth checks on the tab coming back into view. */
const FOCUS_CHECK_MS = 15_000;

/** What the route guard reads of the stored user, to tell whether the auth check changed it. */
function guardFacts(): string {
  const { user } = getSession();
  if (!user) return '';
  const status = user.subscription?.status ?? null;
  return JSON.stringify([user.verified, user.plan, status, user.permission]);
}

/**
 * Runs the auth check on load (spec section 4: not authenticated means signed out) and again on
 * every navigation and when the tab comes back into view, so a role changed or a membership removed by an admin reaches this tab at its
 * next navigation. The fresh user may differ from the stored one the route guard read (a role, a
 * lapsed subscription, a plan changed elsewhere), so the guard runs again on it.
 */
function AuthCheck() {
  const navigate = useNavigate();
  const location = useLocation();
  const { revalidate } = useRevalidator();
  // The check reads the router's current navigate and revalidate but is not re-run when they
  // change: it runs once per navigation (location.key), not on every render.
  const check = useEffectEvent((isLive: () => boolean) => {
    const token = getSession().token;
    if (!token) return;
    const before = guardFacts();
    void checkAuth((to) => void navigate(to)).then((signedOut) => {
      // Only the answer about this same session may re-run the guard (not a sign-in meanwhile).
      if (isLive() && !signedOut && getSession().token === token && guardFacts() !== before)
        void revalidate();
    });
  });
  useEffect(() => {
    let live = true;
    check(() => live);
    return () => {
      live = false;
    };
  }, [location.key]);
  // And when the tab comes back into view (at most every FOCUS_CHECK_MS), so a member removed from
  // the account meanwhile learns it without navigating (issue 26).
  useEffect(() => {
    let last = Date.now();
    let live = true;
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || Date.now() - last < FOCUS_CHECK_MS) return;
      last = Date.now();
      check(() => live);
    };
    // Not on window focus: a click into the page focuses it too, and a check then races the
    // request the click starts (a sign-out's DELETE answered first makes the check a 401).
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
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
