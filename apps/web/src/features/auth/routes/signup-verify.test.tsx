import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { at, mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import SignupVerifyPage from './signup-verify';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

function open(url = '/signup/verify') {
  return renderPage(<SignupVerifyPage />, { path: '/signup/verify', url, title: 'signupVerify' });
}

describe('/signup/verify', () => {
  it('info state: names the address and re-sends, then shows the resent notice', async () => {
    signInAs({ verified: false, plan: null, email: 'new@example.com' });
    const calls = mockApi({ 'POST /api/user/verify/request': { body: { message: 'sent' } } });
    const { user } = open();
    expect(screen.getByText(/We sent a verification link to new@example.com/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Re-send verification email' }));
    expect(await screen.findByText('Verification email sent')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/user/verify/request']);
  });

  it('verifying state: posts the token once, marks the user verified and routes on to the plan', async () => {
    signInAs({ verified: false, plan: null, onboarded: false });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = mockApi({
      'POST /api/user/verify': async () => {
        await gate;
        return { body: { data: { verified: true } } };
      },
    });
    const { router } = open('/signup/verify?token=abc123');
    expect(screen.getByRole('status')).toHaveTextContent('Verifying your email address');
    release();
    await waitFor(() => expect(at(router)).toBe('/signup/plan'));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/api/user/verify', body: { token: 'abc123' } });
    expect(getSession().user?.verified).toBe(true);
  });

  it('a verified user with a plan who is not onboarded goes to /welcome', async () => {
    signInAs({ verified: false, plan: 'free', onboarded: false });
    mockApi({ 'POST /api/user/verify': { body: { data: { verified: true } } } });
    const { router } = open('/signup/verify?token=abc123');
    await waitFor(() => expect(at(router)).toBe('/welcome'));
  });

  it('error state: an expired link shows "Verification Link Has Expired" with re-send', async () => {
    signInAs({ verified: false, plan: null });
    const calls = mockApi({
      'POST /api/user/verify': { status: 400, body: { message: 'This link has expired' } },
      'POST /api/user/verify/request': { body: { message: 'Verification email sent' } },
    });
    const { user } = open('/signup/verify?token=old');
    expect(await screen.findByRole('heading', { name: 'Verification Link Has Expired' })).toBeInTheDocument();
    expect(getSession().user?.verified).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Re-send verification email' }));
    expect(await screen.findByText('Verification email sent')).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(['/api/user/verify', '/api/user/verify/request']);
  });

  it('a 401 signs the user out', async () => {
    signInAs({ verified: false, plan: null });
    mockApi({ 'POST /api/user/verify': { status: 401, body: { message: 'Please sign in' } } });
    const { router } = open('/signup/verify?token=abc');
    await waitFor(() => expect(at(router)).toBe('/signin'));
    expect(getSession().token).toBeNull();
    expect(getSession().user).toBeNull();
  });
});
