import { routeAfterSignIn } from '@air/shared/route-guard';
import type { TRemovalNotice } from '@air/shared/schemas/common';
import type { TUser } from '@air/shared/schemas/user';
// i18next's one instance (lib/i18n.ts sets it up), taken from the framework chunk every page loads.
import i18n from 'i18next';
import { queryClient } from '@/lib/query-client';
import { toast } from '@/components/ui/use-toast';

/*
 * What the auth check (lib/session.ts) does when the session works in another account than the
 * tab knew: loaded only then, so neither the sign-in page nor the first paint of any page carries it.
 */

/** As on an account switch, nothing of the old account may show: requests in flight are cancelled, every cached answer dropped. */
export async function dropAccountData(): Promise<void> {
  await queryClient.cancelQueries();
  queryClient.clear();
}

/** What the notice says, by why the session left the account. */
const MOVED_TEXT = {
  removed: 'auth:removal.movedRemoved',
  left: 'auth:removal.movedLeft',
  closed: 'auth:removal.movedClosed',
} as const satisfies Record<TRemovalNotice['reason'], string>;

/**
 * The member was removed from (or left) the account they worked in, or its owner closed it, and
 * the session now works in another of theirs: a notice says why, and the sign-in routing lands on
 * that account's dashboard.
 */
export async function announceMove(
  moved: TRemovalNotice,
  user: TUser,
  navigate: (to: string) => void,
): Promise<void> {
  // The words live with the sign-in family's (`auth`), which a signed-in page may not have loaded.
  await i18n.loadNamespaces('auth');
  const key = MOVED_TEXT[moved.reason];
  toast({ variant: 'info', title: i18n.t(key, { account: moved.account_name, other: user.account_name }) });
  navigate(routeAfterSignIn({ verified: user.verified, plan: user.plan, onboarded: user.onboarded }));
}
