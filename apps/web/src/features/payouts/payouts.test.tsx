import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import type { TPayoutAccount, TPayouts } from '@air/shared/schemas/payout';
import { mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import i18n from '@/lib/i18n';
import { clearSession } from '@/lib/session';
import PayoutsPage from './routes/payouts';

afterEach(async () => {
  act(() => clearSession());
  vi.restoreAllMocks();
  await act(() => i18n.changeLanguage('en'));
});

function payouts(account: TPayoutAccount | null): TPayouts {
  return {
    currency: 'usd',
    currency_symbol: '$',
    minimum: 1000,
    balance: 540,
    accrued: 1395,
    uncollected: 250,
    pending: 1350,
    paid: 2000,
    provider: 'local',
    account,
    payouts: [
      {
        id: '7f0c8a3e-1f55-4d57-8e2e-3c1a1b2c3d4e',
        period: '2026-11',
        amount: 1350,
        currency: 'usd',
        status: 'pending',
        waiting: account ? null : 'no_payout_account',
        destination: null,
        created_at: '2026-12-01T01:00:00.000Z',
        paid_at: null,
        lines: [
          {
            kind: 'earning',
            route_name: 'acme/chat',
            month: '2026-11',
            calls: 31,
            gross: 1550,
            fee: 155,
            net: 1395,
          },
          {
            kind: 'refund',
            route_name: 'acme/chat',
            month: '2026-11',
            calls: 0,
            gross: -50,
            fee: -5,
            net: -45,
          },
        ],
        statement_pdf: '/api/account/payouts/7f0c8a3e-1f55-4d57-8e2e-3c1a1b2c3d4e/pdf?token=x',
        statement_csv: '/api/account/payouts/7f0c8a3e-1f55-4d57-8e2e-3c1a1b2c3d4e/csv?token=x',
      },
    ],
  };
}

function server() {
  let account: TPayoutAccount | null = null;
  return mockApi({
    'GET /api/account/payouts': () => ({ body: { data: payouts(account) } }),
    'PUT /api/account/payout-account': (body) => {
      const iban = String((body as { iban: string }).iban).replace(/\s/g, '');
      account = {
        method: 'iban',
        holder_name: (body as { holder_name: string }).holder_name,
        country: iban.slice(0, 2),
        last4: iban.slice(-4),
        ready: true,
        onboarding_url: null,
        updated_at: '2026-12-02T00:00:00.000Z',
      };
      return { body: { data: account } };
    },
  });
}

describe('Payouts page', () => {
  it('shows the four figures and the payout with its lines and statement', async () => {
    server();
    signInAs();
    renderPage(<PayoutsPage />, { path: '/account/payouts' });
    const figures = await screen.findByTestId('payout-figures');
    expect(within(figures).getByText('Accrued, not yet invoiced').nextSibling).toHaveTextContent('$13.95');
    expect(within(figures).getByText('Balance').nextSibling).toHaveTextContent('$5.40');
    expect(within(figures).getByText('Pending').nextSibling).toHaveTextContent('$13.50');
    expect(within(figures).getByText('Paid').nextSibling).toHaveTextContent('$20.00');
    expect(screen.getByText(/\$2\.50 is invoiced to callers/)).toBeInTheDocument();
    const payout = screen.getByTestId('payout');
    expect(payout).toHaveTextContent('Waiting for a payout account.');
    expect(within(payout).getByRole('link', { name: 'Statement of November 2026 as PDF' })).toHaveAttribute(
      'href',
      expect.stringContaining('/pdf'),
    );
    expect(within(payout).getByRole('table')).toHaveTextContent('-$0.45');
  });

  it('refuses a wrong IBAN on its field before sending, then saves the right one', async () => {
    const calls = server();
    signInAs();
    const { user } = renderPage(<PayoutsPage />, { path: '/account/payouts' });
    await user.type(await screen.findByLabelText('Account holder'), 'Ada Lovelace');
    const iban = screen.getByRole('textbox', { name: 'IBAN' });
    await user.type(iban, 'DE89 3704 0044 0532 0130 01');
    await user.click(screen.getByRole('button', { name: 'Save bank account' }));
    expect(
      await screen.findByText('Enter a valid IBAN (its country, length and check digits)'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    await user.clear(iban);
    await user.type(iban, 'DE89 3704 0044 0532 0130 00');
    await user.click(screen.getByRole('button', { name: 'Save bank account' }));
    expect(await screen.findByText('Bank account IBAN DE •••• 3000 (Ada Lovelace)')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { method: 'iban', holder_name: 'Ada Lovelace', iban: 'DE89 3704 0044 0532 0130 00' },
    ]);
  });
});
