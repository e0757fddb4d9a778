import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import i18n from '@/lib/i18n';
import { clearSession, setSession } from '@/lib/session';
import { PERMISSION_MAPS, usageFixture, userFixture } from '@/test/fixtures';
import { mockFetch, renderPage } from '@/test/render-page';
import { QuotaBanner } from './components/quota-banner';

afterEach(async () => {
  act(() => clearSession());
  await act(() => i18n.changeLanguage('en'));
  vi.unstubAllGlobals();
});

function usageOf(total: number, quota: number | null = 1000) {
  mockFetch({
    'GET /api/account/usage': {
      body: { data: [usageFixture({ total, quota }), usageFixture({ label: 'served', quota: null })] },
    },
  });
}

function signedInAs(role: 'owner' | 'user') {
  act(() => setSession({ ...userFixture({ role, permission: { ...PERMISSION_MAPS[role] } }), token: 't' }));
}

/** The banner above an empty page, as the console shell places it. */
function Shell() {
  return (
    <>
      <QuotaBanner />
      <p>page</p>
    </>
  );
}

describe('the quota banner', () => {
  it.each([
    [799, 1000],
    [5, null],
  ])('stays hidden at %i calls of a quota of %s', async (total, quota) => {
    usageOf(total, quota);
    signedInAs('owner');
    const { queryClient } = renderPage(Shell, { route: '/dashboard', path: '/dashboard' });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(queryClient.getQueryData(['account-usage'])).toHaveLength(2);
    expect(screen.getByText('page')).toBeInTheDocument();
    expect(screen.queryByTestId('quota-banner')).toBeNull();
  });

  it('warns an owner at 80 % with the upgrade link', async () => {
    usageOf(850);
    signedInAs('owner');
    renderPage(Shell, { route: '/dashboard', path: '/dashboard' });
    const banner = await screen.findByTestId('quota-banner');
    expect(banner).toHaveTextContent("This account has used 85% of this month's 1,000 gateway calls.");
    expect(screen.getByRole('link', { name: 'Upgrade the plan' })).toHaveAttribute(
      'href',
      '/account/billing',
    );
    expect(screen.getByRole('link', { name: 'See usage' })).toHaveAttribute('href', '/account/usage');
  });

  it('tells a user at 100 % that calls are refused and to ask the owner', async () => {
    usageOf(1000);
    signedInAs('user');
    renderPage(Shell, { route: '/dashboard', path: '/dashboard' });
    const banner = await screen.findByTestId('quota-banner');
    expect(banner).toHaveTextContent(
      "This account has used all of this month's 1,000 gateway calls: calls are refused until the month ends.",
    );
    expect(banner).toHaveTextContent('Ask the account owner to upgrade the plan.');
    expect(screen.queryByRole('link', { name: 'Upgrade the plan' })).toBeNull();
  });

  it('speaks Spanish with Spanish numbers', async () => {
    await act(() => i18n.changeLanguage('es'));
    usageOf(900);
    signedInAs('owner');
    renderPage(Shell, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByTestId('quota-banner')).toHaveTextContent(
      'Esta cuenta ha usado el 90 % de las 1.000 llamadas al gateway de este mes.',
    );
    expect(screen.getByRole('link', { name: 'Mejorar el plan' })).toBeInTheDocument();
  });
});
