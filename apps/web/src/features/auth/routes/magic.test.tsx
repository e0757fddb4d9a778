import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { getSession } from '@/lib/session';
import {
  findPage,
  mockFetch,
  renderRoute,
  resetAuthTestState,
  signInAnswer,
} from '@/features/auth/test/harness';

afterEach(resetAuthTestState);

describe('magic link page', () => {
  it('verifies the token and signs in', async () => {
    const calls = mockFetch({
      'POST /api/auth/magic/verify': { status: 200, body: { data: signInAnswer() } },
    });
    const { router } = renderRoute('/magic?token=m-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'), { timeout: 10_000 });
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ token: 'm-1' }]);
    expect(getSession().token).toBe('session-jwt');
  });

  it.each([
    ['a used or expired token', '/magic?token=used'],
    ['no token', '/magic'],
  ])('shows "Magic Link Is Invalid" for %s', async (_label, path) => {
    mockFetch({ 'POST /api/auth/magic/verify': { status: 400, body: { message: 'Invalid link' } } });
    const { router } = renderRoute(path);
    await findPage('Magic Link Is Invalid');
    expect(screen.getByText('Please go back and try again.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/signin');
    expect(router.state.location.pathname).toBe('/magic');
    expect(getSession().token).toBeNull();
  });
});
