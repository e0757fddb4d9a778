import { describe, expect, it } from 'vitest';
import { permissionsFor, type TRole } from './permissions';
import { routeAfterSignIn, routeGuard, subscriptionStatus, type TGuardUser } from './route-guard';

function user(overrides: Partial<TGuardUser> & { role?: TRole } = {}): TGuardUser {
  const { role = 'owner', ...rest } = overrides;
  return {
    permission: permissionsFor(role),
    verified: true,
    plan: 'free',
    subscription: { status: 'active' },
    ...rest,
  };
}

const token = 'jwt';

describe('routeGuard', () => {
  it('lets everyone through a public route, signed in or not', () => {
    expect(routeGuard({ path: '/signin', required: null, user: null, token: null })).toEqual({ allow: true });
    expect(routeGuard({ path: '/signin', required: null, user: user({ verified: false }), token })).toEqual({
      allow: true,
    });
  });

  it('sends a visitor without a token to /signin', () => {
    expect(routeGuard({ path: '/dashboard', required: 'user', user: user(), token: null })).toEqual({
      redirect: '/signin',
    });
    expect(routeGuard({ path: '/mkt', required: 'signed-in', user: null, token })).toEqual({
      redirect: '/signin',
    });
  });

  it('answers forbidden with the role needed for a member without the permission, not /signin (decision 042)', () => {
    expect(
      routeGuard({ path: '/account/users', required: 'admin', user: user({ role: 'developer' }), token }),
    ).toEqual({ forbidden: 'admin' });
    expect(
      routeGuard({ path: '/account/apikeys', required: 'developer', user: user({ role: 'admin' }), token }),
    ).toEqual({ forbidden: 'developer' });
    expect(
      routeGuard({ path: '/account/apikeys', required: 'developer', user: user({ role: 'master' }), token }),
    ).toEqual({ forbidden: 'developer' });
    expect(
      routeGuard({ path: '/account/billing', required: 'owner', user: user({ role: 'user' }), token }),
    ).toEqual({ forbidden: 'owner' });
    expect(
      routeGuard({ path: '/account/apikeys', required: 'developer', user: user({ role: 'owner' }), token }),
    ).toEqual({ allow: true });
  });

  it('applies the other rules first: a forbidden page still sends an unverified or plan-less member on', () => {
    const plain = (overrides: Partial<TGuardUser>) => user({ role: 'user', ...overrides });
    expect(
      routeGuard({
        path: '/account/apikeys',
        required: 'developer',
        user: plain({ verified: false }),
        token,
      }),
    ).toEqual({ redirect: '/signup/verify' });
    expect(
      routeGuard({ path: '/account/apikeys', required: 'developer', user: plain({ plan: null }), token }),
    ).toEqual({ redirect: '/signup/plan' });
    expect(
      routeGuard({
        path: '/account/apikeys',
        required: 'developer',
        user: plain({ subscription: { status: 'canceled' } }),
        token,
      }),
    ).toEqual({ redirect: '/account/billing' });
    // Signed out is still /signin.
    expect(routeGuard({ path: '/account/apikeys', required: 'developer', user: null, token: null })).toEqual({
      redirect: '/signin',
    });
  });

  it('needs only a token and a user for signed-in routes', () => {
    expect(routeGuard({ path: '/mkt', required: 'signed-in', user: user({ role: 'user' }), token })).toEqual({
      allow: true,
    });
  });

  it('keeps unverified users on /account/profile and /signup/verify', () => {
    const u = user({ verified: false, plan: null, subscription: null });
    expect(routeGuard({ path: '/account/profile', required: 'user', user: u, token })).toEqual({
      allow: true,
    });
    expect(routeGuard({ path: '/signup/verify', required: 'user', user: u, token })).toEqual({ allow: true });
    expect(routeGuard({ path: '/dashboard', required: 'user', user: u, token })).toEqual({
      redirect: '/signup/verify',
    });
    expect(routeGuard({ path: '/signup/plan', required: 'owner', user: u, token })).toEqual({
      redirect: '/signup/verify',
    });
  });

  it('sends verified users without a plan to /signup/plan except profile and plan pages', () => {
    const u = user({ plan: null, subscription: null });
    expect(routeGuard({ path: '/dashboard', required: 'user', user: u, token })).toEqual({
      redirect: '/signup/plan',
    });
    expect(routeGuard({ path: '/signup/plan', required: 'owner', user: u, token })).toEqual({ allow: true });
    expect(routeGuard({ path: '/account/profile', required: 'user', user: u, token })).toEqual({
      allow: true,
    });
  });

  it('sends a lapsed subscription to /account/billing except the billing-repair pages', () => {
    for (const status of ['requires_payment_method', 'requires_action', 'canceled']) {
      const u = user({ subscription: { status } });
      expect(routeGuard({ path: '/dashboard', required: 'user', user: u, token })).toEqual({
        redirect: '/account/billing',
      });
      for (const path of [
        '/account/billing',
        '/signup/plan',
        '/account/upgrade',
        '/account',
        '/account/profile',
      ]) {
        expect(routeGuard({ path, required: 'user', user: u, token })).toEqual({ allow: true });
      }
    }
    // A missing subscription is not active either.
    expect(
      routeGuard({ path: '/dashboard', required: 'user', user: user({ subscription: null }), token }),
    ).toEqual({
      redirect: '/account/billing',
    });
  });

  it('accepts active and trialing, as object or bare string', () => {
    for (const subscription of ['active', 'trialing', { status: 'active' }, { status: 'trialing' }]) {
      expect(
        routeGuard({ path: '/dashboard', required: 'user', user: user({ subscription }), token }),
      ).toEqual({
        allow: true,
      });
    }
  });

  it('lets master past a lapsed subscription', () => {
    const u = user({ role: 'master', subscription: { status: 'canceled' } });
    expect(routeGuard({ path: '/dashboard', required: 'user', user: u, token })).toEqual({ allow: true });
  });

  it('sends verified users away from /signup/verify to /dashboard, unless they follow a link', () => {
    expect(routeGuard({ path: '/signup/verify', required: 'user', user: user(), token })).toEqual({
      redirect: '/dashboard',
    });
    // An email change's link is followed while the current address is verified.
    expect(
      routeGuard({ path: '/signup/verify', required: 'user', user: user(), token, linkToken: true }),
    ).toEqual({ allow: true });
  });

  it('ignores trailing slashes and query strings when matching paths', () => {
    const u = user({ verified: false });
    expect(routeGuard({ path: '/account/profile/', required: 'user', user: u, token })).toEqual({
      allow: true,
    });
    expect(routeGuard({ path: '/signup/verify?token=x', required: 'user', user: u, token })).toEqual({
      allow: true,
    });
  });
});

describe('subscriptionStatus', () => {
  it('reads object, string and empty shapes', () => {
    expect(subscriptionStatus({ status: 'active' })).toBe('active');
    expect(subscriptionStatus('trialing')).toBe('trialing');
    expect(subscriptionStatus(null)).toBeNull();
    expect(subscriptionStatus({ status: null })).toBeNull();
  });
});

describe('routeAfterSignIn', () => {
  it('routes by verification, plan and onboarding', () => {
    expect(routeAfterSignIn({ verified: false, plan: 'free', onboarded: true })).toBe('/signup/verify');
    expect(routeAfterSignIn({ verified: true, plan: null, onboarded: true })).toBe('/signup/plan');
    expect(routeAfterSignIn({ verified: true, plan: 'free', onboarded: false })).toBe('/welcome');
    expect(routeAfterSignIn({ verified: true, plan: 'free', onboarded: true })).toBe('/dashboard');
  });
});
