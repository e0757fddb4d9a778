import { afterEach, describe, expect, it, vi } from 'vitest';
import { userFixture } from '@/test/fixtures';
import { act, screen, waitFor } from '@testing-library/react';
import { mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import PasswordPage from './password';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

function open() {
  return renderPage(<PasswordPage />, { path: '/account/password', title: 'password' });
}

describe('/account/password', () => {
  it('asks for the old password when the user has one and sends both', async () => {
    signInAs({ has_password: true });
    const calls = mockApi({
      'PUT /api/user/password': { body: { data: userFixture(), message: 'Your password has been changed' } },
    });
    const { user } = open();
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        'Please enter your current password',
        'Please enter your password',
      ]),
    );
    await user.type(screen.getByLabelText(/Current password/), 'old-pass!');
    await user.type(screen.getByLabelText(/New password/), 'newpassword');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Password must contain at least one special character',
      ),
    );
    await user.type(screen.getByLabelText(/New password/), '!');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password has been changed')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/api/user/password',
      body: { oldpassword: 'old-pass!', newpassword: 'newpassword!', has_password: true },
    });
    // The form is emptied for the next change.
    expect(screen.getByLabelText(/New password/)).toHaveValue('');
  });

  it('does not ask for an old password when the user has none, and then has one', async () => {
    signInAs({ has_password: false });
    const calls = mockApi({
      'PUT /api/user/password': { body: { data: userFixture({ has_password: true }) } },
    });
    const { user } = open();
    expect(screen.queryByLabelText(/Current password/)).toBeNull();
    await user.type(screen.getByLabelText(/New password/), 'brand-new!');
    await user.click(screen.getByRole('button', { name: 'Create password' }));
    expect(await screen.findByText('Your password has been saved')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ newpassword: 'brand-new!', has_password: false });
    expect(getSession().user?.has_password).toBe(true);
    expect(screen.getByLabelText(/Current password/)).toBeInTheDocument();
  });

  it('shows a wrong old password on its field', async () => {
    signInAs({ has_password: true });
    mockApi({
      'PUT /api/user/password': {
        status: 400,
        body: { message: 'Wrong password', inputError: 'oldpassword' },
      },
    });
    const { user } = open();
    await user.type(screen.getByLabelText(/Current password/), 'bad-pass!');
    await user.type(screen.getByLabelText(/New password/), 'brand-new!');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
    expect(screen.getByLabelText(/Current password/)).toHaveAttribute('aria-invalid', 'true');
  });
});
