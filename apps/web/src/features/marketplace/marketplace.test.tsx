import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedEndpointFixture } from '@/test/fixtures';
import { screen } from '@testing-library/react';
import { mockFetch, renderPage } from '@/test/render-page';
import MarketplacePage from './routes/mkt';
import { cardDescription } from './marketplace-text';

afterEach(() => vi.unstubAllGlobals());

const types = ['agent', 'model', 'datasource'] as const;
const shared = Array.from({ length: 10 }, (_, i) =>
  sharedEndpointFixture({
    id: `id-${i + 1}`,
    name: `Shared ${i + 1}`,
    route_name: `org${i + 1}/route`,
    route_type: types[i % 3]!,
    isActive: true,
    isPrivate: false,
    isShared: true,
    account_orgDisplayName: `Org ${i + 1}`,
    config: { description: '<p>A <strong>very</strong> long description of this endpoint</p>' },
  }),
);

describe('marketplace', () => {
  it('cuts descriptions to 21 characters plus "..." after stripping HTML', () => {
    expect(cardDescription('<p>A <strong>very</strong> long description</p>')).toBe(
      'A very long descripti...',
    );
    expect(cardDescription('<p>Short &amp; sweet</p>')).toBe('Short & sweet');
    expect(cardDescription('<img src=x onerror="alert(1)">')).toBe('');
  });

  it('shows a spinner, then at most 8 cards titled by type with route, org, description and Details', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockFetch({ 'GET /api/aiendpointShared': { body: { data: shared } } });
    const fetchMock = globalThis.fetch;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await gate;
      return fetchMock(...args);
    });
    renderPage(MarketplacePage, { route: '/mkt', path: '/mkt', title: 'mkt' });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading shared endpoints…');
    release();

    const details = await screen.findAllByRole('link', { name: /^Details of/ });
    expect(details).toHaveLength(8);
    expect(details[0]).toHaveAttribute('href', '/aiendpoints/id-1');
    expect(details[0]).toHaveTextContent('Details');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Agent',
      'Model',
      'Datasource',
      'Agent',
      'Model',
      'Datasource',
      'Agent',
      'Model',
    ]);
    expect(screen.getByText('org1/route')).toBeInTheDocument();
    expect(screen.getByText('Org 1')).toBeInTheDocument();
    expect(screen.queryByText('org9/route')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('card-description')[0]).toHaveTextContent(/^A very long descripti\.\.\.$/);
  });
});
