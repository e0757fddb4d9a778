import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { getSession } from '@/lib/session';
import {
  findPage,
  mockFetch,
  renderRoute,
  resetAuthTestState,
  signInAnswer,
} from '@/features/auth/test/harness';

afterEach(resetAuthTestState);

describe('social sign-in landing page', () => {
  it('posts the token once and signs in', async () => {
    const calls = mockFetch({
      'POST /api/auth': { status: 200, body: { data: signInAnswer({ plan: null }) } },
    });
    const { router } = renderRoute('/signin/social?provider=google&token=soc-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup/plan'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', url: '/api/auth', body: { token: 'soc-1' } },
    ]);
    expect(getSession().token).toBe('session-jwt');
  });

  it('asks for the second factor when two-factor is on', async () => {
    mockFetch({
      'POST /api/auth': { status: 200, body: { data: { '2fa_required': true, token: 'otp-x' } } },
    });
    const { router } = renderRoute('/signin/social?provider=google&token=soc-2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin/otp'));
    expect(router.state.location.state).toEqual({ otpToken: 'otp-x' });
  });

  it.each([
    ['a refused token', '/signin/social?provider=google&token=used'],
    ['an error parameter', '/signin/social?provider=google&error=access_denied'],
    ['no token', '/signin/social?provider=google'],
  ])('shows "Something Went Wrong" for %s with a way back', async (_label, path) => {
    mockFetch({ 'POST /api/auth': { status: 401, body: { message: 'Token expired' } } });
    const { user, router } = renderRoute(path);
    await findPage('Something Went Wrong');
    expect(screen.getByText('Please try signing in again.')).toBeTruthy();
    await user.click(screen.getByRole('link', { name: 'Back to sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(getSession().token).toBeNull();
  });

  it("shows the server's reason under the fixed text", async () => {
    const reason = 'No AIR account uses the email address of your Google account.';
    mockFetch({});
    renderRoute(`/signin/social?provider=google&error=${encodeURIComponent(reason)}`);
    await findPage('Something Went Wrong');
    expect(screen.getByText(reason)).toBeTruthy();
  });

  it('shows the message of a refused token', async () => {
    mockFetch({ 'POST /api/auth': { status: 401, body: { message: 'This sign-in link has expired' } } });
    renderRoute('/signin/social?provider=google&token=old');
    await findPage('Something Went Wrong');
    expect(screen.getByText('This sign-in link has expired')).toBeTruthy();
  });
});
