import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession } from '@/lib/session';
import { ActivityLog } from './activity-log';

afterEach(() => act(() => clearSession()));

const ADA = { id: '00000000-0000-4000-8000-000000000001', name: 'Ada Owner', email: 'ada@example.com' };
const GONE = { id: '00000000-0000-4000-8000-000000000009', name: 'Gus Gone', email: 'gus@example.com' };

describe('activity log', () => {
  it('offers a removed member in the member filter and filters the log by them', async () => {
    signInAs({ id: ADA.id });
    const calls = mockApi({
      'GET /api/account/users': {
        body: {
          data: {
            users: [
              {
                ...ADA,
                permission: 'owner',
                verified: true,
                status: 'verified',
                date_joined: '2026-11-01T10:00:00.000Z',
                last_login: null,
              },
            ],
            invites: [],
          },
        },
      },
      'GET /api/account/activity': {
        body: {
          data: {
            items: [
              {
                id: '00000000-0000-4000-8000-0000000000a1',
                type: 'member.removed',
                actor: ADA,
                data: { user_id: GONE.id, email: GONE.email, name: GONE.name },
                created_at: '2026-11-20T10:00:00.000Z',
              },
            ],
            people: [ADA, GONE],
            next_cursor: null,
          },
        },
      },
    });
    const { user } = renderPage(<ActivityLog />, { path: '/account/users', title: 'users' });
    const member = await screen.findByLabelText('Member');
    await waitFor(() =>
      expect(
        within(member)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([
        'All members',
        'Ada Owner (ada@example.com)',
        'Gus Gone (gus@example.com), no longer a member',
      ]),
    );
    await user.selectOptions(member, GONE.id);
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/api/account/activity' && c.search === `?member=${GONE.id}`)).toBe(
        true,
      ),
    );
    expect(member).toHaveValue(GONE.id);
  });
});
