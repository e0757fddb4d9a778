import { hasPermission, type TPermissionMap, type TRole } from './permissions';

/** What a route needs: nothing (public), any signed-in user, or a permission from the access matrix. */
export type TRouteRequirement = null | 'signed-in' | TRole;

/** The subset of the stored User the guard reads. */
export interface TGuardUser {
  permission: Partial<TPermissionMap> | null | undefined;
  verified: boolean;
  plan: string | null | undefined;
  /** The server sends an object with a status; older shapes send the bare status string. */
  subscription: { status: string | null | undefined } | string | null | undefined;
  onboarded?: boolean;
}

/**
 * `forbidden`: signed in and past every other rule, but the role lacks the permission: the page
 * names the role it needs instead of its content (decision 042), no redirect.
 */
export type TGuardResult = { allow: true } | { redirect: string } | { forbidden: TRole };

export interface TRouteGuardInput {
  path: string;
  required: TRouteRequirement;
  user: TGuardUser | null | undefined;
  token: string | null | undefined;
  /**
   * The URL carries a mailed link's `?token=`: /signup/verify must open for a verified user too,
   * since the link of an email change is followed while the current address is verified.
   */
  linkToken?: boolean;
}

/** Paths an unverified user may still open (to fix their email or wait for the link). */
export const UNVERIFIED_PATHS: readonly string[] = ['/account/profile', '/signup/verify'];
/** Paths a verified user without a plan may still open. */
export const NO_PLAN_PATHS: readonly string[] = ['/account/profile', '/signup/plan'];
/** Paths a user with a lapsed subscription may still open, so they can repair billing. */
export const LAPSED_SUBSCRIPTION_PATHS: readonly string[] = [
  '/account/billing',
  '/signup/plan',
  '/account/upgrade',
  '/account',
  '/account/profile',
];
/** Subscription statuses that count as paid up. */
export const HEALTHY_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing'];

export function subscriptionStatus(subscription: TGuardUser['subscription']): string | null {
  if (subscription == null) return null;
  if (typeof subscription === 'string') return subscription;
  return subscription.status ?? null;
}

/** Trailing slashes and query strings never change which rule applies. */
function normalise(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '';
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare || '/';
}

const allow: TGuardResult = { allow: true };

/**
 * The spec's route guard (section 4), rules applied in the spec's order, with decision 042's
 * override of rule 1:
 * 1. no token: /signin. Insufficient permission is not a redirect to /signin (it read as a
 *    sign-out): the rules below apply as for any signed-in page, then the answer is `forbidden`
 *    with the role needed, and the console shows the page that names it;
 * 2. unverified users reach only /account/profile and /signup/verify, else /signup/verify;
 * 3. verified users without a plan: /signup/plan unless on /account/profile or /signup/plan;
 * 4. a subscription other than active/trialing (master excepted): /account/billing unless on a
 *    billing-repair page;
 * 5. verified users on /signup/verify: /dashboard.
 * Public routes (`required === null`) allow everyone.
 */
export function routeGuard({ path, required, user, token, linkToken }: TRouteGuardInput): TGuardResult {
  if (required === null) return allow;
  if (!token || !user) return { redirect: '/signin' };
  const asMember = memberRules(normalise(path), user, linkToken);
  if (asMember !== allow) return asMember;
  if (required !== 'signed-in' && !hasPermission(user.permission, required)) return { forbidden: required };
  return allow;
}

/** Rules 2 to 5: what any signed-in page asks of the member, whatever its role. */
function memberRules(where: string, user: TGuardUser, linkToken: boolean | undefined): TGuardResult {
  if (where === '/signup/verify' && linkToken) return allow;
  if (!user.verified) return UNVERIFIED_PATHS.includes(where) ? allow : { redirect: '/signup/verify' };

  if (!user.plan && !NO_PLAN_PATHS.includes(where)) return { redirect: '/signup/plan' };

  const status = subscriptionStatus(user.subscription);
  const healthy = status !== null && HEALTHY_SUBSCRIPTION_STATUSES.includes(status);
  if (!healthy && !hasPermission(user.permission, 'master') && !LAPSED_SUBSCRIPTION_PATHS.includes(where)) {
    return { redirect: '/account/billing' };
  }

  if (where === '/signup/verify') return { redirect: '/dashboard' };
  return allow;
}

/** Where a user lands after signing in or switching account (spec section 4). */
export function routeAfterSignIn(user: Pick<TGuardUser, 'verified' | 'plan' | 'onboarded'>): string {
  if (!user.verified) return '/signup/verify';
  if (!user.plan) return '/signup/plan';
  if (!user.onboarded) return '/welcome';
  return '/dashboard';
}
