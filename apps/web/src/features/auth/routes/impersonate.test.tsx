import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { getSession } from '@/lib/session';
import { mockFetch, renderRoute, resetAuthTestState, signInAnswer } from '@/features/auth/test/harness';

afterEach(resetAuthTestState);

describe('impersonation page', () => {
  it('signs in as the user with the token', async () => {
    const calls = mockFetch({
      'POST /api/auth/impersonate': {
        status: 200,
        body: { data: signInAnswer({ email: 'bob@example.com' }) },
      },
    });
    const { router } = renderRoute('/signin/impersonate?token=imp-1');
    // The dashboard's lazy route loads first: patient on a loaded machine.
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 10_000 });
    expect(calls.find((c) => c.url === '/api/auth/impersonate')?.body).toEqual({ token: 'imp-1' });
    expect(getSession().user?.email).toBe('bob@example.com');
  });

  it.each(['/signin/impersonate?token=stale', '/signin/impersonate'])(
    '%s goes to /404 on failure',
    async (path) => {
      mockFetch({ 'POST /api/auth/impersonate': { status: 401, body: { message: 'Expired' } } });
      const { router } = renderRoute(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
      expect(await screen.findByText("Oops, the page you're looking for doesn't exist.")).toBeTruthy();
      expect(getSession().token).toBeNull();
    },
  );
});
