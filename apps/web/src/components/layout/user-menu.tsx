import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronDown, CircleHelp, Languages, LogOut, Moon, Repeat, Sun, UserPen } from 'lucide-react';
import { routeAfterSignIn } from '@air/shared/route-guard';
import { call } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { LOCALES, type TLocale } from '@/lib/i18n';
import { changeLocale } from '@/lib/locale';
import { setSession, signOut, useSession } from '@/lib/session';
import { setTheme, useTheme } from '@/lib/theme';
import { useErrorHandler } from '@/lib/error-handler';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

/** Spec section 2: Switch account, Edit account, Language, Help, Light/Dark, Sign out. */
export function UserMenu() {
  const { user } = useSession();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const theme = useTheme();
  const accounts = user?.accounts ?? [];

  async function switchAccount(id: string) {
    try {
      const res = await call('POST /api/auth/switch', { body: { account: id } });
      if (!res.data) return;
      // Nothing of the previous account may show: its requests in flight are cancelled and every
      // cached answer is dropped, so whatever renders next fetches under the new account. Then the
      // stored session names the new account (the header shows it) and the navigation below runs.
      await queryClient.cancelQueries();
      queryClient.clear();
      setSession(res.data);
      // Switching repeats the sign-in routing (spec section 4).
      void navigate(
        routeAfterSignIn({
          verified: res.data.verified === true,
          plan: res.data.plan,
          onboarded: res.data.onboarded,
        }),
      );
    } catch (error) {
      handleError(error);
    }
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-auto max-w-56 gap-1 px-2 py-1" data-testid="user-menu">
          <span className="flex min-w-0 flex-col items-end leading-tight">
            <span className="max-w-full truncate">{user?.name ?? t('userMenu.label')}</span>
            {typeof user?.account_name === 'string' && (
              <span
                className="max-w-full truncate text-xs font-normal text-muted-foreground"
                data-testid="active-account"
              >
                <span className="sr-only">{t('userMenu.activeAccount')}: </span>
                {user.account_name}
              </span>
            )}
          </span>
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {user?.email && (
          <>
            <DropdownMenuLabel className="font-normal text-muted-foreground">{user.email}</DropdownMenuLabel>
            <DropdownMenuSeparator />
          </>
        )}
        {accounts.length > 1 && (
          <DropdownMenuSub>
            <DropdownMenuSubTrigger>
              <Repeat aria-hidden="true" />
              {t('userMenu.switchAccount')}
            </DropdownMenuSubTrigger>
            <DropdownMenuSubContent>
              <DropdownMenuRadioGroup
                value={user?.account_id ?? ''}
                onValueChange={(id) => void switchAccount(id)}
              >
                {accounts.map((account) => (
                  <DropdownMenuRadioItem key={account.id} value={account.id}>
                    {account.name}
                  </DropdownMenuRadioItem>
                ))}
              </DropdownMenuRadioGroup>
            </DropdownMenuSubContent>
          </DropdownMenuSub>
        )}
        <DropdownMenuItem onSelect={() => void navigate('/account/profile')}>
          <UserPen aria-hidden="true" />
          {t('userMenu.editAccount')}
        </DropdownMenuItem>
        <DropdownMenuSub>
          <DropdownMenuSubTrigger>
            <Languages aria-hidden="true" />
            {t('userMenu.language')}
          </DropdownMenuSubTrigger>
          <DropdownMenuSubContent>
            <DropdownMenuRadioGroup
              value={i18n.language}
              onValueChange={(lng) => changeLocale(lng as TLocale)}
            >
              {LOCALES.map((lng) => (
                <DropdownMenuRadioItem key={lng} value={lng}>
                  {t(`language.${lng}`)}
                </DropdownMenuRadioItem>
              ))}
            </DropdownMenuRadioGroup>
          </DropdownMenuSubContent>
        </DropdownMenuSub>
        <DropdownMenuItem onSelect={() => void navigate('/help')}>
          <CircleHelp aria-hidden="true" />
          {t('userMenu.help')}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => setTheme(theme === 'dark' ? 'light' : 'dark')}>
          {theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
          {theme === 'dark' ? t('userMenu.lightMode') : t('userMenu.darkMode')}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut((to) => void navigate(to))}>
          <LogOut aria-hidden="true" />
          {t('userMenu.signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
