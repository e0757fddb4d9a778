import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { findPage, mockFetch, renderRoute, resetAuthTestState } from '@/features/auth/test/harness';

afterEach(resetAuthTestState);

const link = '/resetpassword?token=reset-1&email=ada%40example.com';

describe('reset password page', () => {
  it('requires a complex password before sending', async () => {
    const calls = mockFetch({});
    const { user } = renderRoute(link);
    await findPage('Reset password');
    const input = screen.getByLabelText('New password');
    await user.type(input, 'longenoughpassword');
    await user.tab();
    expect(screen.getByRole('alert').textContent).toBe(
      'Password must contain at least one special character',
    );
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('sends token, email and password, then goes to /signin with a success notice', async () => {
    const calls = mockFetch({
      'POST /api/auth/password/reset': { status: 200, body: { message: 'Your password has been reset' } },
    });
    const { user, router } = renderRoute(link);
    await findPage('Reset password');
    expect(screen.getByText('Choose a new password for ada@example.com.')).toBeTruthy();
    await user.type(screen.getByLabelText('New password'), 'new-secret!');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(calls.find((c) => c.url === '/api/auth/password/reset')?.body).toEqual({
      jwt: 'reset-1',
      email: 'ada@example.com',
      password: 'new-secret!',
    });
    expect(await screen.findByText('Your password has been reset')).toBeTruthy();
  });

  it('shows an expired link as a notification and stays on the page', async () => {
    mockFetch({
      'POST /api/auth/password/reset': { status: 401, body: { message: 'This link has expired' } },
    });
    const { user, router } = renderRoute(link);
    await findPage('Reset password');
    await user.type(screen.getByLabelText('New password'), 'new-secret!');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('This link has expired')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/resetpassword');
  });

  it('an incomplete link offers to request a new one', async () => {
    mockFetch({});
    renderRoute('/resetpassword?token=only');
    await findPage('This reset link is incomplete');
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe(
      '/forgotpassword',
    );
  });
});

describe('reset password errors about the link', () => {
  it('shows a message about the hidden email as a notification', async () => {
    mockFetch({
      'POST /api/auth/password/reset': {
        status: 400,
        body: { message: 'This reset link was issued for another email address', inputError: 'email' },
      },
    });
    const { user } = renderRoute(link);
    await findPage('Reset password');
    await user.type(screen.getByLabelText('New password'), 'new-secret!');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('This reset link was issued for another email address')).toBeTruthy();
  });
});
