import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { useSession } from '@/lib/session';
import { Logo } from '@/components/layout/logo';
import { UserMenu } from '@/components/layout/user-menu';
import { PreferencesBar } from '@/components/layout/preferences-bar';
import { Button } from '@/components/ui/button';

/** The marketplace-style top bar shared by the air layouts: links when signed in, sign-in and sign-up otherwise. */
export function AirHeader({ full = false }: { full?: boolean }) {
  const { t } = useTranslation();
  const { signedIn } = useSession();
  const link = ({ isActive }: { isActive: boolean }) =>
    cn(
      'rounded-md px-3 py-2 text-sm font-medium hover:bg-accent',
      isActive ? 'text-foreground' : 'text-muted-foreground',
    );
  return (
    <header className="sticky top-0 z-20 border-b bg-background/95 backdrop-blur">
      {/* Signed out, a phone cannot hold the logo, language, theme, Sign in and Sign up on one
          line: the controls wrap under the logo instead of running off the screen. */}
      <div
        className={cn(
          'flex min-h-14 flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2',
          !full && 'mx-auto max-w-6xl',
        )}
      >
        <div className="flex items-center gap-4">
          <Logo to={signedIn ? '/dashboard' : '/'} />
          {signedIn && (
            <nav aria-label={t('nav.label')} className="hidden items-center gap-1 sm:flex">
              <NavLink to="/mkt" className={link}>
                {t('nav.marketplace')}
              </NavLink>
              <NavLink to="/registry" className={link}>
                {t('nav.registry')}
              </NavLink>
              <NavLink to="/dashboard" className={link}>
                {t('nav.dashboard')}
              </NavLink>
            </nav>
          )}
        </div>
        {signedIn ? (
          <UserMenu />
        ) : (
          <div className="ml-auto flex items-center gap-2">
            <PreferencesBar />
            <Button asChild size="sm" variant="outline">
              <Link to="/signin">{t('auth.signIn')}</Link>
            </Button>
            <Button asChild size="sm">
              <Link to="/signup">{t('auth.signUp')}</Link>
            </Button>
          </div>
        )}
      </div>
    </header>
  );
}
