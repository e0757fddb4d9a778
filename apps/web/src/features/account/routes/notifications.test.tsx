import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession } from '@/lib/session';
import NotificationsPage, { readPreferences } from './notifications';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

describe('/account/notifications', () => {
  it('shows one switch per preference and saves each change at once', async () => {
    signInAs();
    const calls = mockApi({
      'GET /api/notification': {
        body: {
          data: [
            { name: 'new_signin', active: true },
            { name: 'plan_updated', active: false },
            { name: 'card_updated', active: true },
            { name: 'invite_accepted', active: true },
            { name: 'quota_warning', active: false },
          ],
        },
      },
      'PATCH /api/notification': { body: { data: [] } },
    });
    const { user } = renderPage(<NotificationsPage />, {
      path: '/account/notifications',
      title: 'notifications',
    });
    const newSignin = await screen.findByRole('switch', { name: 'New sign-in' });
    expect(newSignin).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Plan updated' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Card updated' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Invite accepted' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Quota warnings' })).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await user.click(newSignin);
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      new_signin: false,
      plan_updated: false,
      card_updated: true,
      invite_accepted: true,
      quota_warning: false,
    });
  });

  it('reads a list or a map, defaulting to on', () => {
    expect(readPreferences([{ name: 'new_signin', active: false }])).toEqual({ new_signin: false });
    expect(readPreferences({ plan_updated: true, card_updated: false })).toEqual({
      plan_updated: true,
      card_updated: false,
    });
    expect(readPreferences(null)).toEqual({});
  });
});
