import { redirect, type LoaderFunctionArgs } from 'react-router';
import { routeGuard, type TGuardUser, type TRouteRequirement } from '@air/shared/route-guard';
import { getSession } from '@/lib/session';
import { toast } from '@/components/ui/use-toast';
import i18n from '@/lib/i18n';

/**
 * A route loader that applies the shared route guard (spec section 4) before the page loads, so a
 * redirect happens in the router and the guarded page's code is never fetched.
 */
export function guardLoader(required: TRouteRequirement) {
  return ({ request }: LoaderFunctionArgs) => {
    if (required === null) return null;
    const { user, token } = getSession();
    const guardUser: TGuardUser | null = user
      ? {
          permission: user.permission,
          verified: user.verified === true,
          plan: user.plan,
          subscription: user.subscription,
          onboarded: user.onboarded,
        }
      : null;
    const url = new URL(request.url);
    const result = routeGuard({
      path: url.pathname,
      required,
      user: guardUser,
      token,
      linkToken: url.searchParams.has('token'),
    });
    if ('redirect' in result) {
      // The spec sends a signed-in user without the permission to /signin; say why, or it reads as
      // a sign-out.
      if (result.reason === 'forbidden') toast({ variant: 'error', title: i18n.t('common:guard.forbidden') });
      throw redirect(result.redirect);
    }
    return null;
  };
}
