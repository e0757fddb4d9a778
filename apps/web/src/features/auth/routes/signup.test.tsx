import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { at, mockApi, renderPage } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import SignupPage from './signup';
import SignupUserPage from './signup-user';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

const signedUp = {
  token: 'new-token',
  id: 'u9',
  name: 'Grace',
  email: 'grace@example.com',
  verified: false,
  plan: null,
  onboarded: false,
  permission: { master: false, owner: true, admin: true, developer: true, user: true },
};

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
  it('joins with the invite id through POST /api/user and routes on like a sign-in', async () => {
    const calls = mockApi({
      'POST /api/user': {
        body: { data: { ...signedUp, verified: true, plan: 'free', onboarded: false, token: 'joined' } },
      },
    });
    const { user, router } = renderPage(<SignupUserPage />, {
      path: '/signup/user',
      url: '/signup/user?invite_id=inv_42&email=grace%40example.com',
      title: 'signupUser',
    });
    expect(screen.getByLabelText(/Email/)).toHaveValue('grace@example.com');
    await user.type(screen.getByLabelText(/Name/), 'Grace');
    await user.type(screen.getByLabelText(/Password/), 'correct-horse!');
    await user.click(screen.getByRole('button', { name: 'Join the team' }));
    await waitFor(() => expect(at(router)).toBe('/welcome'));
    expect(calls[0]?.body).toEqual({
      name: 'Grace',
      email: 'grace@example.com',
      password: 'correct-horse!',
      confirm_password: '',
      invite_id: 'inv_42',
    });
    expect(getSession().token).toBe('joined');
  });

  it('explains an invitation link without its id instead of showing a form', () => {
    mockApi({});
    renderPage(<SignupUserPage />, { path: '/signup/user', title: 'signupUser' });
    expect(screen.getByRole('alert')).toHaveTextContent('This invitation link is incomplete');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
