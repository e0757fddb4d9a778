import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession } from '@/lib/session';
import type { TAccountUsers } from '@air/shared/schemas/membership';
import UsersPage from './users';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

const list: { data: TAccountUsers } = {
  data: {
    users: [
      {
        id: '00000000-0000-4000-8000-000000000001',
        name: 'Ada Owner',
        email: 'ada@example.com',
        permission: 'owner',
        verified: true,
        status: 'verified',
        date_joined: '2026-11-01T10:00:00.000Z',
        last_login: '2026-11-20T10:00:00.000Z',
      },
      {
        id: '00000000-0000-4000-8000-000000000002',
        name: 'Bob Dev',
        email: 'bob@example.com',
        permission: 'developer',
        verified: false,
        status: 'registered',
        date_joined: '2026-11-02T10:00:00.000Z',
        last_login: null,
      },
    ],
    invites: [
      {
        id: '00000000-0000-4000-8000-000000000003',
        email: 'new@example.com',
        permission: 'user',
        date_sent: '2026-11-03T10:00:00.000Z',
        expires_at: '2026-11-10T10:00:00.000Z',
        status: 'expired',
        invited_by: 'Ada Owner',
      },
    ],
  },
};

describe('/account/users', () => {
  it('lists members and invites with status badges; invite errors land on the email field', async () => {
    signInAs({ id: '00000000-0000-4000-8000-000000000001' });
    const calls = mockApi({
      'GET /api/account/users': { body: list },
      'POST /api/invite': {
        status: 400,
        body: { message: 'bob@example.com is already a member', inputError: 'email' },
      },
    });
    const { user } = renderPage(<UsersPage />, { path: '/account/users', title: 'users' });
    const table = await screen.findByRole('table', { name: 'Users and invitations' });
    const bob = (await within(table).findByText('bob@example.com')).closest('tr')!;
    expect(within(bob).getByText('Registered')).toHaveAttribute('data-variant', 'blue');
    expect(within(bob).getByText('Developer')).toBeInTheDocument();
    const invite = within(table).getByText('new@example.com').closest('tr')!;
    expect(within(invite).getByText('Expired')).toBeInTheDocument();
    expect(within(table).getByText('Verified')).toHaveAttribute('data-variant', 'green');

    await user.click(screen.getByRole('button', { name: 'Invite users' }));
    const emails = await screen.findByLabelText(/Email addresses/);
    // Each role says what it may do before one is chosen (issue 38).
    expect(screen.getByRole('combobox', { name: /Role|Permission/ })).toHaveAccessibleDescription(
      /Developer: a user who also manages API keys\. Admin: a user who also manages members and invitations\./,
    );
    // The shared ZInviteRequest refuses a bad address before any call, naming it as the server would.
    await user.type(emails, 'ok@x.io, nope');
    await user.click(screen.getByRole('button', { name: 'Send invitations' }));
    expect(await screen.findByText('These addresses are not valid: nope')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // What only the server knows lands on the same field.
    await user.clear(emails);
    await user.type(emails, 'ok@x.io, bob@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitations' }));
    expect(await screen.findByText('bob@example.com is already a member')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        email: 'ok@x.io, bob@example.com',
        permission: 'user',
      }),
    );
  });
  it('resends an invitation from its row menu, and bulk-deletes only the selected invitations', async () => {
    signInAs({ id: '00000000-0000-4000-8000-000000000001' });
    const invite = list.data.invites[0]!;
    const calls = mockApi({
      'GET /api/account/users': { body: list },
      'POST /api/invite': { body: { data: { invited: [], resent: [invite.email], invites: [invite] } } },
      'DELETE /api/invite': { body: { data: { deleted: 1 } } },
    });
    const { user } = renderPage(<UsersPage />, { path: '/account/users', title: 'users' });
    const table = await screen.findByRole('table', { name: 'Users and invitations' });
    const inviteRow = (await within(table).findByText('new@example.com')).closest('tr')!;

    await user.click(within(inviteRow).getByRole('button', { name: 'Actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Resend invitation' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/api/invite')?.body).toEqual({
        email: 'new@example.com',
        permission: 'user',
      }),
    );

    // A member and the invitation are selected: only the invitation is deleted.
    const bobRow = within(table).getByText('bob@example.com').closest('tr')!;
    await user.click(within(bobRow).getByRole('checkbox', { name: 'Select row' }));
    await user.click(within(inviteRow).getByRole('checkbox', { name: 'Select row' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Actions for selected rows' })).getByRole('button', {
        name: 'Delete invitations',
      }),
    );
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE' && c.path === '/api/invite')?.body).toEqual({
        ids: [invite.id],
      }),
    );
  });
});
