import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDown, Heart, Menu } from 'lucide-react';
import { useSession } from '@/lib/session';
import { Button } from '@/components/ui/button';

/*
 * The buttons that open the shell's overlays (the user menu, the small screens' navigation drawer,
 * the feedback panel). Each is drawn by the light stand-in the shell renders first and, unchanged,
 * by the Radix trigger of the widget's on-demand code (lib/on-demand.ts), so the swap moves nothing
 * on screen. Props (the popup's ARIA state, handlers, the Radix trigger's ref) pass to the button.
 */

type TButtonProps = React.ComponentProps<typeof Button>;

/** The user menu's button: the user's name over the active account. */
export const UserMenuButton = React.forwardRef<HTMLButtonElement, TButtonProps>(
  function UserMenuButton(props, ref) {
    const { user } = useSession();
    const { t } = useTranslation();
    return (
      <Button
        ref={ref}
        type="button"
        variant="ghost"
        className="h-auto max-w-56 gap-1 px-2 py-1"
        data-testid="user-menu"
        {...props}
      >
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
    );
  },
);

/** Small screens: the button that slides the navigation in. */
export const NavSheetButton = React.forwardRef<HTMLButtonElement, TButtonProps>(
  function NavSheetButton(props, ref) {
    const { t } = useTranslation();
    return (
      <Button
        ref={ref}
        type="button"
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label={t('nav.open')}
        {...props}
      >
        <Menu className="size-5" aria-hidden="true" />
      </Button>
    );
  },
);

/** The floating heart that opens the feedback panel. */
export const FeedbackButton = React.forwardRef<HTMLButtonElement, TButtonProps>(
  function FeedbackButton(props, ref) {
    const { t } = useTranslation();
    return (
      <Button
        ref={ref}
        type="button"
        size="icon"
        aria-label={t('feedback.open')}
        className="fixed right-4 bottom-4 z-40 rounded-full shadow-lg"
        {...props}
      >
        <Heart aria-hidden="true" />
      </Button>
    );
  },
);
