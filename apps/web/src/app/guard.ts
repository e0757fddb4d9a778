import { redirect, type LoaderFunctionArgs } from 'react-router';
import type { TRole } from '@air/shared/permissions';
import { routeGuard, type TGuardUser, type TRouteRequirement } from '@air/shared/route-guard';
import { getSession } from '@/lib/session';

/** A guarded page's loader data when the member is signed in but lacks the role it needs. */
export interface TForbidden {
  forbidden: TRole;
}

export function isForbidden(data: unknown): data is TForbidden {
  return typeof data === 'object' && data !== null && 'forbidden' in data;
}

/**
 * A route loader that applies the shared route guard (spec section 4) before the page loads, so a
 * redirect happens in the router and the guarded page's code is never fetched. A signed-in member
 * without the permission is not sent to /signin (decision 042, in the guard itself): the loader
 * answers `{ forbidden: role }` and the router shows the page that names the role, inside the app.
 */
export function guardLoader(required: TRouteRequirement) {
  return ({ request }: LoaderFunctionArgs): TForbidden | null => {
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
    if ('redirect' in result) throw redirect(result.redirect);
    if ('forbidden' in result) return { forbidden: result.forbidden };
    return null;
  };
}
