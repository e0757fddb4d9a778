import { afterEach, describe, expect, it } from 'vitest';
import type { TErrorReply } from '@/test/api-mock';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { getSession } from '@/lib/session';
import {
  findPage,
  mockFetch,
  renderRoute,
  resetAuthTestState,
  signInAnswer,
} from '@/features/auth/test/harness';

afterEach(resetAuthTestState);

const withToken = { pathname: '/signin/otp', state: { otpToken: 'otp-temp' } };

describe('two-factor page', () => {
  it('shows six slots in two groups of three and signs in with the code and the temporary token', async () => {
    const calls = mockFetch({ 'POST /api/auth/otp': { status: 200, body: { data: signInAnswer() } } });
    const { user, router } = renderRoute(withToken);
    await findPage('Two-factor verification');
    const groups = document.querySelectorAll('[data-slot="otp-slot"]');
    expect(groups).toHaveLength(6);
    expect(screen.getByRole('separator')).toBeTruthy();
    const input = screen.getByLabelText('Authentication code');
    expect(input.getAttribute('maxlength')).toBe('6');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Please enter the 6-character code'),
    );
    await user.type(input, '12a3');
    expect(screen.getByRole('alert').textContent).toBe('Please enter the 6-character code');
    await user.type(input, '456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls.find((c) => c.url === '/api/auth/otp')?.body).toEqual({ code: '123456', jwt: 'otp-temp' });
    expect(getSession().token).toBe('session-jwt');
  }, 20_000);

  it('switches to a backup-code text input and back', async () => {
    const calls = mockFetch({
      'POST /api/auth/otp': { status: 200, body: { data: signInAnswer({ onboarded: false }) } },
    });
    const { user, router } = renderRoute('/signin/otp?token=link-temp');
    await findPage('Two-factor verification');
    await user.click(screen.getByRole('button', { name: 'Use a backup code instead' }));
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    expect(document.querySelectorAll('[data-slot="otp-slot"]')).toHaveLength(0);
    const backup = screen.getByLabelText('Backup code');
    expect(backup.getAttribute('type')).toBe('text');
    await user.type(backup, 'ABCD-EFGH-1234');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome'));
    expect(calls.find((c) => c.url === '/api/auth/otp')?.body).toEqual({
      code: 'ABCD-EFGH-1234',
      jwt: 'link-temp',
    });
  });

  it('can go back from the backup code to the authenticator slots', async () => {
    mockFetch({});
    const { user } = renderRoute(withToken);
    await findPage('Two-factor verification');
    // Pressing the switch keeps focus in the code field: a blur would validate it and shift the
    // switch under the pointer before the release.
    expect(fireEvent.mouseDown(screen.getByRole('button', { name: 'Use a backup code instead' }))).toBe(
      false,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Use a backup code instead' }));
    await user.click(screen.getByRole('button', { name: 'Use your authenticator app instead' }));
    expect(screen.getByLabelText('Authentication code')).toBeTruthy();
  });

  it('shows a wrong code on the field when the server names it, and a refused code as a notification', async () => {
    let answer: TErrorReply = {
      status: 400,
      body: { message: 'That code is not valid', inputError: 'code' },
    };
    mockFetch({ 'POST /api/auth/otp': () => answer });
    const { user, router } = renderRoute(withToken);
    await findPage('Two-factor verification');
    await user.type(screen.getByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not valid');
    answer = { status: 401, body: { message: 'The code has expired' } } as typeof answer;
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code has expired')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signin/otp');
    expect(getSession().token).toBeNull();
  });

  it('without a temporary token asks to sign in again', async () => {
    mockFetch({});
    renderRoute('/signin/otp');
    await findPage('Your sign-in has expired');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/signin');
  });
});
