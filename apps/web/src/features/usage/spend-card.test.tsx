import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { TUsageList } from '@air/shared/schemas/usage';
import { mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import i18n from '@/lib/i18n';
import { clearSession } from '@/lib/session';
import { SpendCard, spendLimitValue } from './components/spend-card';

afterEach(async () => {
  act(() => clearSession());
  vi.restoreAllMocks();
  await act(() => i18n.changeLanguage('en'));
});

const bounds = {
  period: '2026-11',
  period_start: '2026-11-01T00:00:00.000Z',
  period_end: '2026-12-01T00:00:00.000Z',
};

function usage(spent: number, limit: number | null): TUsageList {
  return [
    { label: 'calls', total: 20, quota: 1000, ...bounds },
    { label: 'served', total: 0, quota: null, ...bounds },
    { label: 'spend', total: spent, quota: limit, ...bounds, currency: 'usd', currency_symbol: '$' },
  ];
}

/** The server as the card sees it: the saved limit changes what usage answers next. */
function server(spent: number, limit: number | null) {
  let saved = limit;
  const calls = mockApi({
    'GET /api/account/usage': () => ({ body: { data: usage(spent, saved) } }),
    'PATCH /api/account/spend-limit': (body) => {
      saved = body.marketplace_spend_limit;
      return {
        body: { data: { marketplace_spend_limit: saved, currency: 'usd', currency_symbol: '$' } },
      };
    },
  });
  return calls;
}

function open(canEdit = true) {
  signInAs();
  return renderPage(<SpendCard locale={i18n.language} canEdit={canEdit} />, { path: '/account/usage' });
}

describe('SpendCard (usage page)', () => {
  it('reads typed money as minor units; empty is no limit; anything else goes to the schema as typed', () => {
    expect(spendLimitValue('25')).toBe(2500);
    expect(spendLimitValue(' 12,5 ')).toBe(1250);
    expect(spendLimitValue('0.07')).toBe(7);
    expect(spendLimitValue('')).toBeNull();
    expect(spendLimitValue('1.234')).toBe('1.234');
    expect(spendLimitValue('-3')).toBe('-3');
  });

  it("shows the month's spend against the limit, and saves a new limit in minor units", async () => {
    const calls = server(9000, 10000);
    const { user } = open();
    expect(await screen.findByText('$90.00 of your $100.00 limit (90%)')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Spend limit used' })).toHaveAttribute(
      'aria-valuenow',
      '90',
    );
    const field = screen.getByLabelText('Monthly spend limit (USD)');
    expect(field).toHaveValue('100.00');
    await user.clear(field);
    await user.type(field, '150.5');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    expect(await screen.findByText('$90.00 of your $150.50 limit (59%)')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { marketplace_spend_limit: 15050 },
    ]);
  });

  it('refuses an amount that is not money before sending, and removes the limit', async () => {
    const calls = server(0, 500);
    const { user } = open();
    const field = await screen.findByLabelText('Monthly spend limit (USD)');
    await user.clear(field);
    await user.type(field, '12.345');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    expect(
      await screen.findByText('Enter an amount from 0 to 1,000,000.00, with at most 2 decimals'),
    ).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove limit' }));
    expect(
      await screen.findByText('No spend limit: priced calls are never refused for spend.'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { marketplace_spend_limit: null },
    ]);
    expect(screen.queryByRole('button', { name: 'Remove limit' })).not.toBeInTheDocument();
  });

  it('shows a member without the right the spend but no form', async () => {
    server(120, null);
    open(false);
    expect(
      await screen.findByText('$1.20 spent on priced marketplace routes this month.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText("Only the account's owner or an admin can change the limit."),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Monthly spend limit (USD)')).not.toBeInTheDocument();
  });

  it('speaks Spanish', async () => {
    await act(() => i18n.changeLanguage('es'));
    server(100, 0);
    open();
    expect(await screen.findByText('Gasto en el marketplace (2026-11)')).toBeInTheDocument();
    expect(screen.getByLabelText('Límite de gasto mensual (USD)')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Guardar límite' })).toBeInTheDocument());
    expect(screen.getByText(/Se alcanzó el límite/)).toBeInTheDocument();
  });
});
