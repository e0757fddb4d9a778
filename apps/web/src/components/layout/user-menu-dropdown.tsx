import { useEffect, useLayoutEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CircleHelp, Languages, LogOut, Moon, Repeat, Sun, UserPen } from 'lucide-react';
import { routeAfterSignIn } from '@air/shared/route-guard';
import { call } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { LOCALES, type TLocale } from '@/lib/i18n';
import { changeLocale } from '@/lib/locale';
import { setSession, signOut, useSession } from '@/lib/session';
import { setTheme, useTheme } from '@/lib/theme';
import { useErrorHandler } from '@/lib/error-handler';
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
import { UserMenuButton } from './overlay-triggers';

/** How the user asked for the menu before its code was there: a key on the button, or a press. */
export type TMenuOpening = { key: string } | { pointerType: string };

/**
 * Spec section 2: Switch account, Edit account, Language, Help, Light/Dark, Sign out. Loaded on
 * first use by the shell's UserMenu (user-menu.tsx), which hands over how the user opened it.
 */
export function UserMenuDropdown({ opening }: { opening?: TMenuOpening }) {
  const { user } = useSession();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const theme = useTheme();
  const accounts = user?.accounts ?? [];
  const trigger = useRef<HTMLButtonElement>(null);
  const replayed = useRef(false);

  // This trigger replaces the stand-in that had focus when a key asked for the menu.
  useLayoutEffect(() => {
    if (opening && 'key' in opening) trigger.current?.focus({ preventScroll: true });
  }, [opening]);
  // The event that asked for the menu goes to Radix's own trigger, once (StrictMode runs effects
  // twice), so the menu opens as it always does: from a key with focus on the first item (Radix
  // tells keyboard use from the keydown, in a listener its root adds in an effect, run before this
  // one), from a press with focus on the menu. A passive effect for that reason.
  useEffect(() => {
    const target = trigger.current;
    if (!opening || replayed.current || !target) return;
    replayed.current = true;
    target.dispatchEvent(
      'key' in opening
        ? new KeyboardEvent('keydown', { key: opening.key, bubbles: true, cancelable: true })
        : new PointerEvent('pointerdown', {
            button: 0,
            pointerType: opening.pointerType,
            bubbles: true,
            cancelable: true,
          }),
    );
  }, [opening]);

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
      <DropdownMenuTrigger asChild ref={trigger}>
        <UserMenuButton />
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
                <DropdownMenuRadioItem key={lng} value={lng} lang={lng}>
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
