import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { permissionsFor } from '@air/shared/permissions';
import { buildRoutes } from '@/app/router';
import { ApiError } from '@/lib/api';
import { handleError } from '@/lib/error-handler';
import { queryClient } from '@/lib/query-client';
import {
  clearSession,
  ENDED_KEPT_MS,
  ENDED_STORAGE_KEY,
  getEndedNotice,
  getSession,
  setEndedNotice,
  setSession,
} from '@/lib/session';
import { mockApi } from '@/features/account/test/page-harness';
import { signInFixture, userFixture } from '@/test/fixtures';

/**
 * Issue 26: the landing of a member removed from the account they were working in, or whose
 * account its owner closed.
 */

function renderAt(path: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

function signInToAcme() {
  act(() =>
    setSession(
      signInFixture({
        token: 'acme-session',
        role: 'developer',
        permission: { ...permissionsFor('developer') },
        verified: true,
        plan: 'free',
        onboarded: true,
        accounts: [
          { id: 'a1', name: 'Acme' },
          { id: 'b1', name: 'Beta' },
        ],
        account_id: 'a1',
        account_name: 'Acme',
      }),
    ),
  );
}

const never = () => new Promise<never>(() => {});

afterEach(() => {
  act(() => {
    clearSession();
    setEndedNotice(null);
  });
  sessionStorage.clear();
  queryClient.clear();
});

/** The user as the server answers once the session works in their other account, Beta. */
function betaUser() {
  return userFixture({
    role: 'developer',
    permission: { ...permissionsFor('developer') },
    verified: true,
    plan: 'free',
    onboarded: true,
    accounts: [{ id: 'b1', name: 'Beta' }],
    account_id: 'b1',
    account_name: 'Beta',
  });
}

describe('a removed member', () => {
  it('moved to another account: the old data is dropped, a notice says why, the new dashboard opens', async () => {
    signInToAcme();
    queryClient.setQueryData(['acme', 'keys'], ['Acme key']);
    const moved = betaUser();
    mockApi({
      'GET /api/auth': {
        status: 200,
        body: {
          data: { authenticated: true, ...moved, moved: { reason: 'removed', account_name: 'Acme' } },
        },
      },
      'GET /api/account/overview': never,
      'GET /api/account/usage': never,
      'GET /api/aiendpoint': never,
    });
    const router = renderAt('/account/profile');
    expect(await screen.findByText('You were removed from Acme. You are now in Beta.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(getSession().user).toMatchObject({ account_id: 'b1', account_name: 'Beta' });
    expect(getSession().token).toBe('acme-session');
    expect(queryClient.getQueryData(['acme', 'keys'])).toBeUndefined();
  });

  it('without another account: signed out, and the sign-in page says why', async () => {
    signInToAcme();
    mockApi({
      'GET /api/auth': {
        status: 200,
        body: { data: { authenticated: false, ended: { reason: 'removed', account_name: 'Acme' } } },
      },
      'DELETE /api/auth': { status: 401, body: { message: 'Please sign in to continue' } },
    });
    const router = renderAt('/account/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    const notice = await screen.findByTestId('session-ended');
    expect(notice.textContent).toContain(
      'You were removed from Acme and have no other account. Ask an admin for a new invite.',
    );
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(getSession().token).toBeNull();
    // A sign-in makes it old news.
    act(() => setSession(signInFixture()));
    expect(getEndedNotice()).toBeNull();
  });

  it("a 401 that says why keeps the reason for the sign-in page; a plain one doesn't invent one", () => {
    const seen: string[] = [];
    handleError(new ApiError(401, { message: 'Please sign in to continue' }), (to) => seen.push(to));
    expect(getEndedNotice()).toBeNull();
    handleError(
      new ApiError(401, {
        message: 'You left Acme and have no other account.',
        ended: { reason: 'left', account_name: 'Acme' },
      }),
      (to) => seen.push(to),
    );
    expect(seen).toEqual(['/signin', '/signin']);
    expect(getEndedNotice()).toEqual({ reason: 'left', account_name: 'Acme' });
  });
  it('working in another account than this tab knew (moved, told in another tab): the cache is dropped', async () => {
    signInToAcme();
    queryClient.setQueryData(['acme', 'keys'], ['Acme key']);
    const beta = betaUser();
    mockApi({
      'GET /api/auth': { status: 200, body: { data: { authenticated: true, ...beta } } },
      'GET /api/user': { status: 200, body: { data: beta } },
    });
    renderAt('/account/profile');
    await waitFor(() => expect(getSession().user).toMatchObject({ account_id: 'b1' }));
    expect(queryClient.getQueryData(['acme', 'keys'])).toBeUndefined();
  });

  it('the check runs again when the tab comes back into view, not more often than every 15 s', async () => {
    signInToAcme();
    let checks = 0;
    mockApi({
      'GET /api/auth': () => {
        checks += 1;
        return { status: 200, body: { data: { authenticated: false } } };
      },
      'DELETE /api/auth': { status: 200, body: { message: 'Signed out' } },
    });
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(now);
      const router = renderAt('/signin');
      await waitFor(() => expect(checks).toBe(1));
      // Signed in again meanwhile (the first answer signed this tab out).
      signInToAcme();
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      expect(checks).toBe(1);
      clock.mockReturnValue(now + 16_000);
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
      // (TanStack Query refetches on visibilitychange too: at least the auth check's own call.)
      await waitFor(() => expect(checks).toBeGreaterThanOrEqual(2));
      expect(router.state.location.pathname).toBe('/signin');
    } finally {
      clock.mockRestore();
    }
  });
});

describe('a member whose account its owner closed', () => {
  it('moved to another account: the notice says the owner closed it', async () => {
    signInToAcme();
    mockApi({
      'GET /api/auth': {
        status: 200,
        body: {
          data: { authenticated: true, ...betaUser(), moved: { reason: 'closed', account_name: 'Acme' } },
        },
      },
      'GET /api/account/overview': never,
      'GET /api/account/usage': never,
      'GET /api/aiendpoint': never,
    });
    const router = renderAt('/account/profile');
    expect(await screen.findByText('The owner of Acme closed it. You are now in Beta.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('without another account: the sign-in page says the owner closed it', async () => {
    signInToAcme();
    mockApi({
      'GET /api/auth': {
        status: 200,
        body: { data: { authenticated: false, ended: { reason: 'closed', account_name: 'Acme' } } },
      },
      'DELETE /api/auth': { status: 401, body: { message: 'Please sign in to continue' } },
    });
    renderAt('/account/profile');
    const notice = await screen.findByTestId('session-ended');
    expect(notice.textContent).toContain('The owner of Acme closed it, and you have no other account.');
  });
});

describe('why the session ended, on a reload of the sign-in page', () => {
  const closed = { reason: 'closed', account_name: 'Acme' } as const;

  /**
   * The session module as a reload of the page loads it, from this tab's storage. (Modules loaded
   * later bind to this copy: the tests that render come first.)
   */
  async function reloaded() {
    vi.resetModules();
    return import('@/lib/session');
  }

  it('a sign-in or dismissing the notice forgets it', async () => {
    act(() => setEndedNotice(closed));
    act(() => setSession(signInFixture()));
    expect(sessionStorage.getItem(ENDED_STORAGE_KEY)).toBeNull();
    act(() => clearSession());

    act(() => setEndedNotice(closed));
    renderAt('/signin');
    const notice = await screen.findByTestId('session-ended');
    expect(notice.textContent).toContain('The owner of Acme closed it');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss this notice' }));
    await waitFor(() => expect(screen.queryByTestId('session-ended')).toBeNull());
    expect(getEndedNotice()).toBeNull();
    expect(sessionStorage.getItem(ENDED_STORAGE_KEY)).toBeNull();
    expect((await reloaded()).getEndedNotice()).toBeNull();
  });

  it("is kept in this tab's session storage and read back by the next page load", async () => {
    act(() => setEndedNotice(closed));
    expect(JSON.parse(sessionStorage.getItem(ENDED_STORAGE_KEY)!)).toMatchObject({ notice: closed });
    expect(localStorage.getItem(ENDED_STORAGE_KEY)).toBeNull();
    expect((await reloaded()).getEndedNotice()).toEqual(closed);
  });

  it('is not read back once someone signed in, after a day, or when it is not a reason', async () => {
    act(() => setEndedNotice(closed));
    localStorage.setItem('air.token', 'someone-else');
    expect((await reloaded()).getEndedNotice()).toBeNull();
    expect(sessionStorage.getItem(ENDED_STORAGE_KEY)).toBeNull();
    localStorage.removeItem('air.token');

    const stale = { notice: closed, at: Date.now() - ENDED_KEPT_MS - 1000 };
    sessionStorage.setItem(ENDED_STORAGE_KEY, JSON.stringify(stale));
    expect((await reloaded()).getEndedNotice()).toBeNull();
    sessionStorage.setItem(
      ENDED_STORAGE_KEY,
      JSON.stringify({ notice: { reason: 'hacked', account_name: 'X' }, at: Date.now() }),
    );
    expect((await reloaded()).getEndedNotice()).toBeNull();
    sessionStorage.setItem(ENDED_STORAGE_KEY, '{not json');
    expect((await reloaded()).getEndedNotice()).toBeNull();
  });
});
