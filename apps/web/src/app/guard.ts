import { redirect, type LoaderFunctionArgs } from 'react-router';
import { routeGuard, type TGuardUser, type TRouteRequirement } from '@air/shared/route-guard';
import { getSession } from '@/lib/session';

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
    const result = routeGuard({ path: new URL(request.url).pathname, required, user: guardUser, token });
    if ('redirect' in result) throw redirect(result.redirect);
    return null;
  };
}
