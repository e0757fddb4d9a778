import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import i18n from '@/lib/i18n';
import { clearSession, setSession } from '@/lib/session';
import { apiKeyFixture, PERMISSION_MAPS, userFixture } from '@/test/fixtures';
import { mockFetch, renderPage } from '@/test/render-page';
import ApiKeysPage from './routes/api-keys';

/*
 * Issue 38 item 2: the key list shows each key's calls this period against its cap, the calls
 * refused, and "limit reached" once the cap is used up, with the page's "limit reached, calls are
 * refused" state naming the key. Before, the list said "2 calls per period" and nothing else.
 */

const id = '00000000-0000-4000-8000-0000000000c1';

afterEach(async () => {
  act(() => clearSession());
  await act(() => i18n.changeLanguage('en'));
  vi.unstubAllGlobals();
});

function keysAtTheirCap() {
  mockFetch({
    'GET /api/key': {
      body: {
        data: [
          apiKeyFixture({
            id,
            name: 'Capped',
            monthly_calls: 2,
            usage: { ...apiKeyFixture().usage, period: '2026-05', calls: 2, refused: 2, limit_reached: true },
          }),
          apiKeyFixture({
            id: '00000000-0000-4000-8000-0000000000c2',
            name: 'Open',
            usage: {
              ...apiKeyFixture().usage,
              period: '2026-05',
              calls: 1,
              refused: 0,
              limit_reached: false,
            },
          }),
        ],
      },
    },
    'GET /api/account/usage/limits': {
      body: {
        data: {
          period: '2026-05',
          reached: [{ kind: 'key_cap', key_id: id, key_name: 'Capped' }],
          refused: 2,
        },
      },
    },
  });
  act(() => setSession({ ...userFixture({ permission: { ...PERMISSION_MAPS.owner } }), token: 't' }));
}

const cell = (row: HTMLElement, label: string) => row.querySelector(`td[data-label="${label}"]`)!;

describe('the key list: use against caps', () => {
  it('shows 2 / 2, the refusals and "limit reached" for a key at its cap, and the page state', async () => {
    keysAtTheirCap();
    renderPage(ApiKeysPage, { route: '/account/apikeys', path: '/account/apikeys', title: 'apikeys' });
    const capped = (await screen.findByText('Capped', { selector: 'td *, td' })).closest('tr')!;
    expect(cell(capped, 'Limits')).toHaveTextContent('2 / 2 calls this period');
    expect(within(capped).getByText('Limit reached: calls refused')).toHaveAttribute('data-variant', 'red');
    expect(cell(capped, 'Limits')).toHaveTextContent('2 refused');
    const open = screen.getByText('Open', { selector: 'td *, td' }).closest('tr')!;
    expect(cell(open, 'Limits')).toHaveTextContent('1 call this period, no cap');
    expect(within(open).queryByText('Limit reached: calls refused')).toBeNull();

    const state = await screen.findByTestId('limits-reached');
    expect(state).toHaveTextContent('Limit reached: calls are refused');
    expect(state).toHaveTextContent('Key “Capped” has used all its calls for this period');
    expect(state).toHaveTextContent('2 calls refused for a limit this month.');
    expect(within(state).getByRole('link', { name: 'Edit the key' })).toHaveAttribute(
      'href',
      `/account/apikeys/edit?id=${id}`,
    );
  });

  it('says it in Spanish', async () => {
    await act(() => i18n.changeLanguage('es'));
    keysAtTheirCap();
    renderPage(ApiKeysPage, { route: '/account/apikeys', path: '/account/apikeys', title: 'apikeys' });
    const capped = (await screen.findByText('Capped', { selector: 'td *, td' })).closest('tr')!;
    expect(cell(capped, 'Límites')).toHaveTextContent('2 / 2 llamadas este periodo');
    expect(within(capped).getByText('Límite alcanzado: llamadas rechazadas')).toBeInTheDocument();
    const state = await screen.findByTestId('limits-reached');
    expect(state).toHaveTextContent('Límite alcanzado: se rechazan las llamadas');
    expect(state).toHaveTextContent('2 llamadas rechazadas por un límite este mes.');
  });

  it("shows a governed key's tokens and spend against its limits, and nothing more for a plain key (issue 42)", async () => {
    mockFetch({
      'GET /api/key': {
        body: {
          data: [
            apiKeyFixture({
              id,
              name: 'Governed',
              tokens_per_minute: 5000,
              monthly_spend: 1000,
              usage: { ...apiKeyFixture().usage, tokens: 12_345, spend: 1000, budget_reached: true },
            }),
            apiKeyFixture({ id: '00000000-0000-4000-8000-0000000000c2', name: 'Plain' }),
          ],
        },
      },
      'GET /api/account/usage/limits': {
        body: {
          data: {
            period: '2026-05',
            reached: [{ kind: 'key_budget', key_id: id, key_name: 'Governed' }],
            refused: 0,
          },
        },
      },
    });
    act(() => setSession({ ...userFixture({ permission: { ...PERMISSION_MAPS.owner } }), token: 't' }));
    renderPage(ApiKeysPage, { route: '/account/apikeys', path: '/account/apikeys', title: 'apikeys' });
    const governed = (await screen.findByText('Governed', { selector: 'td *, td' })).closest('tr')!;
    expect(within(governed).getByTestId('key-tokens')).toHaveTextContent(
      '12,345 tokens this period, limit 5,000 a minute',
    );
    expect(within(governed).getByTestId('key-spend')).toHaveTextContent('$10.00 / $10.00 this period');
    expect(within(governed).getByText('Budget spent: priced calls refused')).toHaveAttribute(
      'data-variant',
      'red',
    );
    const plain = screen.getByText('Plain', { selector: 'td *, td' }).closest('tr')!;
    expect(within(plain).queryByTestId('key-tokens')).toBeNull();
    expect(within(plain).queryByTestId('key-spend')).toBeNull();
    expect(await screen.findByTestId('limits-reached')).toHaveTextContent(
      'Key “Governed” has spent its budget',
    );
  });
});
