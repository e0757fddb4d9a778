import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { at, mockApi, PERMISSIONS, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession, getSession, type TSessionUser } from '@/lib/session';
import ProfilePage from './profile';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

const A1 = '11111111-1111-4111-8111-111111111111';
const A2 = '22222222-2222-4222-8222-222222222222';

function profile(patch: Partial<TSessionUser> = {}) {
  return {
    name: 'Ada Owner',
    email: 'ada@example.com',
    account_id: A1,
    account_name: 'Ada Org',
    accounts: [{ id: A1, name: 'Ada Org' }],
    default_account: A1,
    support_enabled: false,
    permission: { ...PERMISSIONS.owner },
    verified: true,
    ...patch,
  };
}

function open() {
  return renderPage(<ProfilePage />, { path: '/account/profile', title: 'profile' });
}

describe('/account/profile', () => {
  it('an owner edits the account name; there is no default account select with one account', async () => {
    signInAs({ account_id: A1 });
    const calls = mockApi({
      'GET /api/user': { body: { data: profile() } },
      'PATCH /api/user': { body: { data: { verified: true } } },
    });
    const { user } = open();
    const accountName = await screen.findByLabelText(/Account name/);
    expect(accountName).toHaveValue('Ada Org');
    expect(screen.queryByText('Default account')).toBeNull();
    await user.clear(accountName);
    await user.type(accountName, 'Ada Labs');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your profile has been updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      name: 'Ada Owner',
      email: 'ada@example.com',
      account_name: 'Ada Labs',
      support_enabled: false,
    });
    expect(getSession().user?.accounts).toEqual([{ id: A1, name: 'Ada Labs' }]);
  });

  it('a non-owner has no account name field; more than one account shows the default account select', async () => {
    signInAs({ permission: { ...PERMISSIONS.user }, account_id: A1 });
    mockApi({
      'GET /api/user': {
        body: {
          data: profile({
            permission: { ...PERMISSIONS.user },
            accounts: [
              { id: A1, name: 'Ada Org' },
              { id: A2, name: 'Side Project' },
            ],
          }),
        },
      },
    });
    open();
    await screen.findByLabelText(/^Name/);
    expect(screen.queryByLabelText(/Account name/)).toBeNull();
    const select = screen.getByRole('combobox', { name: /Default account/ });
    expect(select).toHaveTextContent('Ada Org');
  });

  it('an email change leaves the user unverified and goes to /signup/verify', async () => {
    signInAs({ account_id: A1 });
    const calls = mockApi({
      'GET /api/user': { body: { data: profile() } },
      'PATCH /api/user': { body: { data: { email: 'new@example.com', verified: false } } },
    });
    const { user, router } = open();
    const email = await screen.findByLabelText(/Email/);
    await user.clear(email);
    await user.type(email, 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(at(router)).toBe('/signup/verify'));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ email: 'new@example.com' });
    expect(getSession().user).toMatchObject({ email: 'new@example.com', verified: false });
  });

  it('shows the spec messages for an empty name and email', async () => {
    signInAs();
    const calls = mockApi({ 'GET /api/user': { body: { data: profile() } } });
    const { user } = open();
    await user.clear(await screen.findByLabelText(/^Name/));
    await user.clear(screen.getByLabelText(/Email/));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Please enter your name',
      'Please enter your email address',
    ]);
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it('Danger Zone: an owner closes the whole account with DELETE /api/account and the password', async () => {
    signInAs();
    const calls = mockApi({
      'GET /api/user': { body: { data: profile() } },
      'DELETE /api/account': { body: { message: 'Account closed' } },
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'Close account' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Close account' }));
    expect(
      await within(dialog).findByText('Please enter your password to confirm your account deletion'),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Password/), 'hunter2!!');
    await user.click(within(dialog).getByRole('button', { name: 'Close account' }));
    await waitFor(() => expect(at(router)).toBe('/signin'));
    expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({
      path: '/api/account',
      body: { password: 'hunter2!!' },
    });
    expect(getSession().token).toBeNull();
  });

  it('Danger Zone: anyone else deletes only their own user with DELETE /api/user', async () => {
    signInAs({ permission: { ...PERMISSIONS.admin } });
    const calls = mockApi({
      'GET /api/user': { body: { data: profile({ permission: { ...PERMISSIONS.admin } }) } },
      'DELETE /api/user': { body: {} },
    });
    const { user, router } = open();
    expect(await screen.findByText(/Deleting your user removes you from this account/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(await within(dialog).findByLabelText(/Password/), 'hunter2!!');
    await user.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(at(router)).toBe('/signin'));
    expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({
      path: '/api/user',
      body: { password: 'hunter2!!' },
    });
    expect(calls.some((c) => c.path === '/api/account')).toBe(false);
  });

  it('a wrong password keeps the dialog open with the message on the field and the session intact', async () => {
    signInAs();
    mockApi({
      'GET /api/user': { body: { data: profile() } },
      'DELETE /api/account': { status: 400, body: { message: 'Wrong password', inputError: 'password' } },
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'Close account' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(await within(dialog).findByLabelText(/Password/), 'nope!nope');
    await user.click(within(dialog).getByRole('button', { name: 'Close account' }));
    expect(await within(dialog).findByText('Wrong password')).toBeInTheDocument();
    expect(at(router)).toBe('/account/profile');
    expect(getSession().token).toBe('test-token');
  });
});
