import { afterEach, describe, expect, it, vi } from 'vitest';
import { userFixture } from '@/test/fixtures';
import { act, screen, waitFor } from '@testing-library/react';
import { at, mockApi, PERMISSIONS, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import WelcomePage from './welcome';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

function open(url = '/welcome') {
  return renderPage(<WelcomePage />, { path: '/welcome', url, title: 'welcome' });
}

describe('/welcome', () => {
  it('starts with the welcome step when the user is not a duplicate, and finishes to the dashboard', async () => {
    signInAs({ permission: { ...PERMISSIONS.developer }, onboarded: false, duplicate_user: false });
    const calls = mockApi({ 'PATCH /api/user': { body: { data: userFixture({ onboarded: true }) } } });
    const { user, router } = open();
    expect(screen.getByRole('heading', { name: 'Welcome to AIR' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 1')).toBeInTheDocument();
    expect(screen.queryByText('You already have a user account')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Go to the dashboard' }));
    await waitFor(() => expect(at(router)).toBe('/dashboard'));
    expect(calls[0]).toMatchObject({ method: 'PATCH', path: '/api/user', body: { onboarded: true } });
    expect(getSession().user?.onboarded).toBe(true);
  });

  it('shows the duplicate-user warning first when flagged, one step per page', async () => {
    signInAs({ permission: { ...PERMISSIONS.developer }, onboarded: false, duplicate_user: true });
    mockApi({});
    const { user, router } = open();
    expect(screen.getByRole('heading', { name: 'You already have a user account' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 2')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Welcome to AIR' })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Next' }));
    await waitFor(() => expect(at(router)).toBe('/welcome?page=2'));
    expect(screen.getByRole('heading', { name: 'Welcome to AIR' })).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back' }));
    await waitFor(() => expect(at(router)).toBe('/welcome?page=1'));
  });

  it('offers admins an invite-team step that opens the invite dialog and posts to /api/invite', async () => {
    signInAs({ onboarded: false, duplicate_user: false });
    const calls = mockApi({
      'POST /api/invite': {
        body: { data: { invited: ['a@x.io'], resent: [], invites: [] }, message: 'Invitations sent: 1' },
      },
    });
    const { user } = open('/welcome?page=2');
    expect(screen.getByRole('heading', { name: 'Invite your team' })).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Invite users' }));
    await user.type(await screen.findByLabelText(/Email addresses/), 'a@x.io');
    await user.click(screen.getByRole('button', { name: 'Send invitations' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/invite')?.body).toEqual({
        email: 'a@x.io',
        permission: 'user',
      }),
    );
  });

  it('shows "Nothing to show" past the last step', async () => {
    signInAs({ permission: { ...PERMISSIONS.developer }, onboarded: false, duplicate_user: false });
    mockApi({});
    open('/welcome?page=2');
    expect(screen.getByText('Nothing to show')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to the dashboard' })).toBeInTheDocument();
  });

  it('skip marks the user onboarded and goes to the dashboard from any step', async () => {
    signInAs({ permission: { ...PERMISSIONS.developer }, onboarded: false, duplicate_user: true });
    const calls = mockApi({ 'PATCH /api/user': { body: { data: userFixture({ onboarded: true }) } } });
    const { user, router } = open('/welcome?page=1');
    await user.click(screen.getByRole('button', { name: 'Skip intro' }));
    await waitFor(() => expect(at(router)).toBe('/dashboard'));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ onboarded: true });
  });

  it('stays on the step when finishing fails', async () => {
    signInAs({ permission: { ...PERMISSIONS.developer }, onboarded: false });
    mockApi({ 'PATCH /api/user': { status: 500, body: { message: 'Something went wrong' } } });
    const { user, router } = open();
    await user.click(screen.getByRole('button', { name: 'Go to the dashboard' }));
    expect(await screen.findAllByText('Something went wrong')).not.toHaveLength(0);
    expect(at(router)).toBe('/welcome');
    expect(getSession().user?.onboarded).toBe(false);
  });
});
