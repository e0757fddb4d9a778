import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { at, mockApi, PERMISSIONS, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession, getSession, type TSessionUser } from '@/lib/session';
import { userFixture } from '@/test/fixtures';
import ProfilePage from './profile';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

const A1 = '11111111-1111-4111-8111-111111111111';
const A2 = '22222222-2222-4222-8222-222222222222';

function profile(patch: Partial<TSessionUser> = {}): TSessionUser {
  return userFixture({
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
  });
}

function open() {
  return renderPage(<ProfilePage />, { path: '/account/profile', title: 'profile' });
}

describe('/account/profile', () => {
  it('an owner edits the account name; there is no default account select with one account', async () => {
    signInAs({ account_id: A1 });
    const calls = mockApi({
      'GET /api/user': { body: { data: profile() } },
      'PATCH /api/user': {
        body: { data: profile({ account_name: 'Ada Labs', accounts: [{ id: A1, name: 'Ada Labs' }] }) },
      },
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
      password: '',
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

  it('an email change sends the current password and keeps the address in use until the link is opened', async () => {
    signInAs({ account_id: A1 });
    const calls = mockApi({
      'GET /api/user': { body: { data: profile() } },
      'PATCH /api/user': {
        body: {
          data: profile({ email: 'ada@example.com', verified: true }),
          message: 'We sent a link to new@example.com: your email changes when you open it.',
        },
      },
    });
    const { user, router } = open();
    const email = await screen.findByLabelText(/Email/);
    await user.clear(email);
    await user.type(email, 'new@example.com');
    await user.type(screen.getByLabelText(/Current password/), 'Correct-horse-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/We sent a link to new@example.com/)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
      email: 'new@example.com',
      password: 'Correct-horse-1',
    });
    expect(at(router)).toBe('/account/profile');
    expect(getSession().user).toMatchObject({ email: 'ada@example.com', verified: true });
  }, 20_000);

  it('lists the sessions with this one marked and signs another one out', async () => {
    signInAs({ account_id: A1 });
    const S1 = '33333333-3333-4333-8333-333333333333';
    const S2 = '44444444-4444-4444-8444-444444444444';
    const at = '2026-11-20T10:00:00.000Z';
    const calls = mockApi({
      'GET /api/user': { body: { data: profile() } },
      'GET /api/user/sessions': {
        body: {
          data: [
            { id: S1, device: 'Laptop', ip: '10.0.0.1', created_at: at, last_seen_at: at, current: true },
            { id: S2, device: 'Phone', ip: '10.0.0.2', created_at: at, last_seen_at: at, current: false },
          ],
        },
      },
      'DELETE /api/user/sessions/:id': {
        body: { data: { signed_out: 1, signout: false }, message: 'The session has been signed out' },
      },
    });
    const { user } = open();
    const rows = await screen.findAllByTestId('session-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('This session')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Sign out this session' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out all other sessions' })).toBeInTheDocument();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('The session has been signed out')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/api/user/sessions/${S2}`)).toBe(true);
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
      'DELETE /api/account': { body: { data: { signout: true }, message: 'Account closed' } },
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
      'DELETE /api/user': { body: { data: { signout: true } } },
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
