import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TReply } from '@/test/api-mock';
import { signInFixture } from '@/test/fixtures';
import { act, screen, waitFor } from '@testing-library/react';
import { at, mockApi, renderPage } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import SignupPage from './signup';
import SignupUserPage from './signup-user';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

const signedUp = signInFixture({
  token: 'new-token',
  id: 'u9',
  name: 'Grace',
  email: 'grace@example.com',
  verified: false,
  plan: null,
  subscription: null,
  onboarded: false,
});

describe('/signup', () => {
  it('shows the spec messages for a missing name and email and a password without a special character', async () => {
    const calls = mockApi({});
    const { user } = renderPage(<SignupPage />, { path: '/signup', title: 'signup' });
    await user.type(screen.getByLabelText(/Password/), 'abcdefgh1');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual([
      'Please enter your name',
      'Please enter your email address',
      'Password must contain at least one special character',
    ]);
    expect(calls).toHaveLength(0);
  });

  it('creates the account with an empty bot trap, stores the session and goes to verification', async () => {
    const calls = mockApi({ 'POST /api/account': { status: 201, body: { data: signedUp } } });
    const { user, router } = renderPage(<SignupPage />, { path: '/signup', title: 'signup' });
    await user.type(screen.getByLabelText(/Name/), 'Grace');
    await user.type(screen.getByLabelText(/Email/), 'grace@example.com');
    await user.type(screen.getByLabelText(/Password/), 'correct-horse!');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(at(router)).toBe('/signup/verify'));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/account',
      body: { name: 'Grace', email: 'grace@example.com', password: 'correct-horse!', confirm_password: '' },
    });
    expect(getSession().token).toBe('new-token');
    expect(getSession().user).toMatchObject({ email: 'grace@example.com', verified: false });
    expect(getSession().user).not.toHaveProperty('token');
  });

  it('an existing user with two-factor on who signs up for an account of their own is asked for the code', async () => {
    mockApi({
      'POST /api/account': { status: 201, body: { data: { '2fa_required': true, token: 'otp-signup' } } },
    });
    const { user, router } = renderPage(<SignupPage />, { path: '/signup', title: 'signup' });
    await user.type(screen.getByLabelText(/Name/), 'Grace');
    await user.type(screen.getByLabelText(/Email/), 'grace@example.com');
    await user.type(screen.getByLabelText(/Password/), 'correct-horse!');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(at(router)).toBe('/signin/otp'));
    expect(router.state.location.state).toEqual({ otpToken: 'otp-signup' });
    expect(getSession().token).toBeNull();
  });

  it('attaches a taken email message to the email field', async () => {
    mockApi({
      'POST /api/account': {
        status: 409,
        body: { message: 'This email is already registered', inputError: 'email' },
      },
    });
    const { user } = renderPage(<SignupPage />, { path: '/signup', title: 'signup' });
    await user.type(screen.getByLabelText(/Name/), 'Grace');
    await user.type(screen.getByLabelText(/Email/), 'grace@example.com');
    await user.type(screen.getByLabelText(/Password/), 'correct-horse!');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('This email is already registered')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('/signup/user', () => {
  const info = (existing: boolean): TReply<'GET /api/invite/:token'> => ({
    body: {
      data: {
        email: 'grace@example.com',
        account_name: 'Acme',
        inviter_name: 'Ada',
        permission: 'developer',
        existing_user: existing,
      },
    },
  });

  it('a new address signs up with the link token through POST /api/user and routes on like a sign-in', async () => {
    const calls = mockApi({
      'GET /api/invite/:token': info(false),
      'POST /api/user': {
        body: { data: { ...signedUp, verified: true, plan: 'free', onboarded: false, token: 'joined' } },
      },
    });
    const { user, router } = renderPage(<SignupUserPage />, {
      path: '/signup/user',
      url: '/signup/user?token=tok_0123456789abcdef',
      title: 'signupUser',
    });
    expect(await screen.findByText('Ada invited you to join Acme as a developer.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveValue('grace@example.com');
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('readonly');
    await user.type(screen.getByLabelText(/Name/), 'Grace');
    await user.type(screen.getByLabelText(/Password/), 'correct-horse!');
    await user.click(screen.getByRole('button', { name: 'Join the team' }));
    await waitFor(() => expect(at(router)).toBe('/welcome'));
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/api/invite/tok_0123456789abcdef' });
    expect(calls[1]?.body).toEqual({
      name: 'Grace',
      email: 'grace@example.com',
      password: 'correct-horse!',
      confirm_password: '',
      invite_id: 'tok_0123456789abcdef',
    });
    expect(getSession().token).toBe('joined');
  });

  it('an address that already has a user joins with its current password', async () => {
    const calls = mockApi({
      'GET /api/invite/:token': info(true),
      'POST /api/user': { body: { data: { ...signedUp, verified: true, plan: 'free', onboarded: true } } },
    });
    const { user, router } = renderPage(<SignupUserPage />, {
      path: '/signup/user',
      url: '/signup/user?token=tok_0123456789abcdef',
      title: 'signupUser',
    });
    await user.type(await screen.findByLabelText(/current password/), 'old-secret!');
    expect(screen.queryByLabelText(/Name/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Join Acme' }));
    await waitFor(() => expect(at(router)).toBe('/dashboard'));
    expect(calls[1]?.body).toEqual({
      email: 'grace@example.com',
      password: 'old-secret!',
      invite_id: 'tok_0123456789abcdef',
    });
  });

  it('an existing user with two-factor on goes to the code screen with the temporary token, no session stored', async () => {
    mockApi({
      'GET /api/invite/:token': info(true),
      'POST /api/user': { status: 201, body: { data: { '2fa_required': true, token: 'otp-invite' } } },
    });
    const { user, router } = renderPage(<SignupUserPage />, {
      path: '/signup/user',
      url: '/signup/user?token=tok_0123456789abcdef',
      title: 'signupUser',
    });
    await user.type(await screen.findByLabelText(/current password/), 'old-secret!');
    await user.click(screen.getByRole('button', { name: 'Join Acme' }));
    await waitFor(() => expect(at(router)).toBe('/signin/otp'));
    expect(router.state.location.state).toEqual({ otpToken: 'otp-invite' });
    expect(getSession().token).toBeNull();
  });

  it('shows the server message for an expired or used invitation', async () => {
    mockApi({
      'GET /api/invite/:token': {
        status: 400,
        body: { message: 'This invitation has expired. Please ask for a new one.' },
      },
    });
    renderPage(<SignupUserPage />, {
      path: '/signup/user',
      url: '/signup/user?token=tok_0123456789abcdef',
      title: 'signupUser',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('explains an invitation link without its token instead of showing a form', () => {
    mockApi({});
    renderPage(<SignupUserPage />, { path: '/signup/user', title: 'signupUser' });
    expect(screen.getByRole('alert')).toHaveTextContent('This invitation link is incomplete');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
