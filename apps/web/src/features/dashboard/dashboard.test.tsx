import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiKeyFixture, endpointFixture, usageFixture } from '@/test/fixtures';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockFetch, renderPage } from '@/test/render-page';
import DashboardPage from './routes/dashboard';
import { QuotaBanner } from '@/features/usage/components/quota-banner';
import { clearSession, setSession } from '@/lib/session';
import { userFixture } from '@/test/fixtures';
import { PLACEHOLDER_KEY, PLACEHOLDER_ROUTE } from './snippets';

afterEach(() => {
  act(() => clearSession());
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const FULL_KEY = `air_${'a'.repeat(40)}`;
const keyId = '00000000-0000-4000-8000-000000000001';

function withKeyAndRoute() {
  return mockFetch({
    'GET /api/key': { body: { data: [apiKeyFixture({ id: keyId, name: 'k', key: 'air_aaaa…' })] } },
    'GET /api/key/:id': { body: { data: apiKeyFixture({ id: keyId, key: FULL_KEY }) } },
    'GET /api/aiendpoint': { body: { data: [endpointFixture({ route_name: 'acme/echo', isActive: true })] } },
    'GET /api/account/usage': {
      body: {
        data: [
          usageFixture({ label: 'calls', total: 42 }),
          usageFixture({ label: 'served', total: 7, quota: null }),
        ],
      },
    },
  });
}

describe('dashboard quick-start', () => {
  it('builds every snippet from the origin, the revealed first key and a real route', async () => {
    withKeyAndRoute();
    const { user } = renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    const origin = window.location.origin;
    await waitFor(() => expect(screen.getByTestId('snippet-curl')).toHaveTextContent(FULL_KEY));
    const curl = screen.getByTestId('snippet-curl').textContent!;
    expect(curl).toContain(`'${origin}/api/v1'`);
    expect(curl).toContain(`x-api-key: ${FULL_KEY}`);
    expect(curl).toContain('x-route-name: acme/echo');
    expect(curl).toContain('"messages":[{"role":"user","content":"Hello!"}]');
    expect(curl).toContain('"stream":false');

    await user.click(screen.getByRole('tab', { name: 'NodeJS' }));
    const node = screen.getByTestId('snippet-node').textContent!;
    expect(node).toContain(`Bearer ${FULL_KEY}`);
    expect(node).toContain('\'x-route-name\': "acme/echo"');
    await user.click(screen.getByRole('tab', { name: 'Python' }));
    expect(screen.getByTestId('snippet-python')).toHaveTextContent(`"x-api-key": "${FULL_KEY}"`);

    const openai = screen.getByTestId('snippet-openai').textContent!;
    expect(openai).toContain(`baseURL: "${origin}/api/v1"`);
    expect(openai).toContain('model: "gpt-4o"');
    expect(screen.getByTestId('usage-total')).toHaveTextContent('42');
    // The welcome, in the page's flow.
    expect(await screen.findByText('Welcome to AIR')).toBeInTheDocument();
  });

  it('keeps the placeholders and only warns when the key fetch fails', async () => {
    mockFetch({
      'GET /api/key': { status: 403, body: { message: 'Forbidden' } },
      'GET /api/aiendpoint': { body: { data: [] } },
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    await waitFor(() => expect(warn).toHaveBeenCalled());
    const curl = screen.getByTestId('snippet-curl').textContent!;
    expect(curl).toContain(`x-api-key: ${PLACEHOLDER_KEY}`);
    expect(curl).toContain(`x-route-name: ${PLACEHOLDER_ROUTE}`);
    expect(await screen.findByRole('link', { name: 'Create an API key' })).toBeInTheDocument();
  });

  it('copies the snippet and confirms for 2 seconds', async () => {
    withKeyAndRoute();
    renderPage(DashboardPage, { route: '/dashboard', path: '/dashboard' });
    // After renderPage: user-event installs its own clipboard stub on setup.
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await waitFor(() => expect(screen.getByTestId('snippet-curl')).toHaveTextContent(FULL_KEY));
    vi.useFakeTimers();
    const panel = screen.getByTestId('snippet-curl').parentElement!;
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith(screen.getByTestId('snippet-curl').textContent);
    expect(within(panel).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1900));
    expect(within(panel).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(within(panel).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });
});

/** The console shell: the quota banner above the page, both reading GET /api/account/usage. */
function DashboardUnderBanner() {
  return (
    <>
      <QuotaBanner />
      <DashboardPage />
    </>
  );
}

describe('dashboard usage beside the quota banner', () => {
  it('shows the month calls and the quota when the banner has read the same usage list', async () => {
    mockFetch({
      'GET /api/key': { body: { data: [] } },
      'GET /api/aiendpoint': { body: { data: [] } },
      'GET /api/account/usage': {
        body: {
          data: [usageFixture({ total: 900, quota: 1000 }), usageFixture({ label: 'served', quota: null })],
        },
      },
    });
    act(() => setSession({ ...userFixture(), token: 't' }));
    renderPage(DashboardUnderBanner, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByTestId('quota-banner')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('usage-total')).toHaveTextContent('900'));
    expect(screen.getByText('of 1,000 calls')).toBeInTheDocument();
  });
});
