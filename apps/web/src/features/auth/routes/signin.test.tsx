import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { getSession } from '@/lib/session';
import {
  findPage,
  mockFetch,
  renderRoute,
  resetAuthTestState,
  signInAnswer,
} from '@/features/auth/test/harness';

afterEach(resetAuthTestState);

async function signIn(path = '/signin') {
  const view = renderRoute(path);
  await findPage('Sign in');
  await view.user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await view.user.type(screen.getByLabelText('Password'), 'secret!pw');
  await view.user.click(screen.getByRole('button', { name: 'Sign in' }));
  return view;
}

describe('sign-in page', () => {
  it.each([
    ['not verified', '/signup/verify', { verified: false }],
    ['verified without a plan', '/signup/plan', { plan: null }],
    ['with a plan but not onboarded', '/welcome', { onboarded: false }],
    ['onboarded', '/dashboard', {}],
  ])('a user %s lands on %s and the session is stored', async (_label, target, flags) => {
    const calls = mockFetch({ 'POST /api/auth': { status: 200, body: { data: signInAnswer(flags) } } });
    const { router } = await signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      email: 'ada@example.com',
      password: 'secret!pw',
    });
    expect(getSession().token).toBe('session-jwt');
    expect(getSession().user?.email).toBe('ada@example.com');
    expect(getSession().user).not.toHaveProperty('token');
  });

  it('goes to /signin/otp with the temporary token when two-factor is on, storing no session', async () => {
    mockFetch({
      'POST /api/auth': { status: 200, body: { data: { '2fa_required': true, token: 'otp-temp' } } },
    });
    const { router } = await signIn('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin/otp'));
    expect(router.state.location.state).toEqual({ otpToken: 'otp-temp' });
    expect(getSession().token).toBeNull();
    await findPage('Two-factor verification');
  });

  it('validates before sending and shows a wrong password as an error notification', async () => {
    const calls = mockFetch({
      'POST /api/auth': { status: 401, body: { message: 'Email or password is wrong' } },
    });
    const { user, router } = renderRoute('/signin');
    await findPage('Sign in');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    // The server's rules and the spec's messages (ZSignIn).
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        'Please enter your email address',
        'Please enter your password',
      ]),
    );
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email or password is wrong')).toBeTruthy();
    expect(screen.getByText('Sign-in failed')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signin');
  });

  it('shows an error notification for the error query parameter and drops the parameter', async () => {
    mockFetch({});
    const { router } = renderRoute('/signin?error=unknown_email');
    await findPage('Sign in');
    expect(
      await screen.findByText(
        'No AIR account uses that email address. Sign up first, then link your provider.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('shows a sentence from the server in the error parameter as it is', async () => {
    mockFetch({});
    renderRoute('/signin?error=' + encodeURIComponent('The provider refused the request.'));
    expect(await screen.findByText('The provider refused the request.')).toBeTruthy();
  });

  it('lists social providers as links to the server and links to sign up and forgot password', async () => {
    mockFetch({
      'GET /api/auth/providers': {
        status: 200,
        body: {
          data: [
            { name: 'google', label: 'Google' },
            { name: 'github', label: 'Github' },
          ],
        },
      },
    });
    renderRoute('/signin');
    await findPage('Sign in');
    const google = await screen.findByRole('link', { name: 'Continue with Google' });
    expect(google.getAttribute('href')).toBe('/api/auth/social/google');
    expect(screen.getByRole('link', { name: 'Continue with Github' }).getAttribute('href')).toBe(
      '/api/auth/social/github',
    );
    expect(screen.getAllByRole('link', { name: /Continue with/ })).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/forgotpassword',
    );
  });

  it('magic-link mode sends the email and shows the check-your-email notice', async () => {
    const calls = mockFetch({
      'POST /api/auth/magic': { status: 200, body: { message: 'Check your email' } },
    });
    const { user } = renderRoute('/signin');
    await findPage('Sign in');
    await user.click(screen.getByRole('button', { name: 'Sign in with a magic link instead' }));
    expect(screen.queryByLabelText('Password')).toBeNull();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send magic link' }));
    const notice = await screen.findByRole('status');
    expect(within(notice).getByText('Check your email')).toBeTruthy();
    expect(notice.textContent).toContain('ada@example.com');
    expect(calls.find((c) => c.url === '/api/auth/magic')?.body).toEqual({ email: 'ada@example.com' });
    await user.click(screen.getByRole('button', { name: 'Sign in with your password instead' }));
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });
});
