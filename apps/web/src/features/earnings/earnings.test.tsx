import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { TEarnings } from '@air/shared/schemas/marketplace';
import i18n from '@/lib/i18n';
import { endpointFixture, routingConfigFixture } from '@/test/fixtures';
import { mockFetch, renderPage } from '@/test/render-page';
import { earningsCsv, formatAmount, minorToDecimal, totalsOf } from './earnings-figures';
import EarningsPage from './routes/earnings';

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await act(() => i18n.changeLanguage('en'));
});

const EARNINGS: TEarnings = {
  fee_percent: 10,
  currency: 'usd',
  currency_symbol: '$',
  rows: [
    {
      period: '2026-11',
      route_name: 'acme/echo',
      price: { per_call: 50_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
      calls: 1234,
      paying_accounts: 3,
      gross: 6170,
      fee: 617,
      net: 5553,
    },
    {
      period: '2026-11',
      route_name: 'acme/chat',
      price: { per_call: 0, per_1m_input_tokens: 1_500_000, per_1m_output_tokens: 6_000_000 },
      calls: 10,
      paying_accounts: 1,
      gross: 123457,
      fee: 12346,
      net: 111111,
    },
    {
      period: '2026-10',
      route_name: 'acme/echo',
      price: { per_call: 40_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
      calls: 100,
      paying_accounts: 2,
      gross: 400,
      fee: 40,
      net: 360,
    },
  ],
};

function open() {
  return renderPage(EarningsPage, {
    route: '/account/earnings',
    path: '/account/earnings',
    title: 'earnings',
  });
}

/** The figures of the totals panel as label → value. */
function totals(): Record<string, string> {
  const panel = screen.getByTestId('earnings-totals');
  const labels = within(panel).getAllByRole('term');
  const values = within(panel).getAllByRole('definition');
  return Object.fromEntries(labels.map((label, i) => [label.textContent, values[i]!.textContent]));
}

/** The table's body rows as their cells' text. */
function lines(): string[][] {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

describe('earnings figures', () => {
  it('turns minor units into a decimal with integer arithmetic only', () => {
    expect(minorToDecimal(0)).toBe('0.00');
    expect(minorToDecimal(5)).toBe('0.05');
    expect(minorToDecimal(100)).toBe('1.00');
    expect(minorToDecimal(123456)).toBe('1234.56');
    expect(minorToDecimal(-5)).toBe('-0.05');
    // Past what a float divided by 100 prints exactly.
    expect(minorToDecimal(9007199254740991)).toBe('90071992547409.91');
    expect(() => minorToDecimal(0.5)).toThrow(RangeError);
  });

  it('formats an amount the English and the Spanish way from the same minor units', () => {
    expect(formatAmount(123457, 'usd', 'en')).toBe('$1,234.57');
    expect(formatAmount(5, 'usd', 'en')).toBe('$0.05');
    expect(formatAmount(123457, 'usd', 'es')).toBe('1.234,57\u00a0US$');
    expect(formatAmount(9007199254740991, 'usd', 'en')).toBe('$90,071,992,547,409.91');
  });

  it('sums the lines shown (paying accounts are not summed)', () => {
    expect(totalsOf(EARNINGS.rows.slice(0, 2))).toEqual({
      calls: 1244,
      gross: 129627,
      fee: 12963,
      net: 116664,
    });
  });

  it('writes one CSV line per month, route and price, then the totals, amounts as decimals', () => {
    expect(earningsCsv(EARNINGS, '2026-11').split('\r\n')).toEqual([
      'period,route,price_per_call,price_per_1m_input_tokens,price_per_1m_output_tokens,calls,paying_accounts,gross,platform_fee,net,currency',
      '2026-11,acme/echo,0.05,0.00,0.00,1234,3,61.70,6.17,55.53,USD',
      '2026-11,acme/chat,0.00,1.50,6.00,10,1,1234.57,123.46,1111.11,USD',
      '2026-11,total,,,,1244,,1296.27,129.63,1166.64,USD',
      '',
    ]);
    expect(earningsCsv(EARNINGS, 'all').split('\r\n').at(-2)).toBe(
      'all,total,,,,1344,,1300.27,130.03,1170.24,USD',
    );
  });

  it('quotes cells with commas, quotes or line breaks and neutralises formulas', () => {
    const odd: TEarnings = {
      ...EARNINGS,
      rows: [
        { ...EARNINGS.rows[0]!, route_name: 'acme/"echo", v2' },
        { ...EARNINGS.rows[1]!, route_name: '=HYPERLINK("x")' },
        { ...EARNINGS.rows[2]!, period: '2026-11', route_name: 'line\nbreak' },
      ],
    };
    const csv = earningsCsv(odd, '2026-11');
    expect(csv).toContain('2026-11,"acme/""echo"", v2",0.05,');
    expect(csv).toContain(`2026-11,"'=HYPERLINK(""x"")",0.00,`);
    expect(csv).toContain('2026-11,"line\nbreak",0.04,');
  });
});

describe('/account/earnings', () => {
  it('shows the newest month: each line with its price, totals with the fee, and other months on demand', async () => {
    mockFetch({ 'GET /api/account/earnings': { body: { data: EARNINGS } } });
    const { user } = open();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading your earnings…');
    expect(await screen.findByRole('heading', { name: 'Totals for November 2026' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Earnings by route and price' })).toBeInTheDocument();
    expect(screen.getByLabelText('Period')).toHaveValue('2026-11');
    expect(totals()).toEqual({
      'Paid calls': '1,244',
      Gross: '$1,296.27',
      'Platform fee (10%)': '$129.63',
      Net: '$1,166.64',
    });
    expect(lines()).toEqual([
      ['acme/echo: $0.05 per call', '1,234', '3', '$61.70', '$6.17', '$55.53'],
      [
        'acme/chat: $1.50 per 1M input tokens, $6.00 per 1M output tokens',
        '10',
        '1',
        '$1,234.57',
        '$123.46',
        '$1,111.11',
      ],
    ]);

    await user.selectOptions(screen.getByLabelText('Period'), 'October 2026');
    expect(await screen.findByRole('heading', { name: 'Totals for October 2026' })).toBeInTheDocument();
    expect(lines()).toEqual([['acme/echo: $0.04 per call', '100', '2', '$4.00', '$0.40', '$3.60']]);

    await user.selectOptions(screen.getByLabelText('Period'), 'All periods');
    expect(await screen.findByRole('heading', { name: 'Totals for all periods' })).toBeInTheDocument();
    expect(lines().map((cells) => cells.slice(0, 2))).toEqual([
      ['November 2026', 'acme/echo: $0.05 per call'],
      ['November 2026', 'acme/chat: $1.50 per 1M input tokens, $6.00 per 1M output tokens'],
      ['October 2026', 'acme/echo: $0.04 per call'],
    ]);
    expect(totals().Net).toBe('$1,170.24');
  });

  it('downloads the lines shown as CSV', async () => {
    const saved: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: (blob: Blob) => (saved.push(blob), 'blob:x') }),
    );
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    mockFetch({ 'GET /api/account/earnings': { body: { data: EARNINGS } } });
    const { user } = open();
    await user.selectOptions(await screen.findByLabelText('Period'), 'October 2026');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(saved).toHaveLength(1);
    expect(await saved[0]!.text()).toBe(earningsCsv(EARNINGS, '2026-10'));
    expect(await saved[0]!.text()).toContain('2026-10,acme/echo,0.04,0.00,0.00,100,2,4.00,0.40,3.60,USD');
  });

  it('writes numbers and money the Spanish way', async () => {
    await act(() => i18n.changeLanguage('es'));
    mockFetch({ 'GET /api/account/earnings': { body: { data: EARNINGS } } });
    open();
    expect(await screen.findByRole('heading', { name: 'Totales de noviembre de 2026' })).toBeInTheDocument();
    expect(totals()).toEqual({
      'Llamadas pagadas': '1.244',
      Bruto: '1.296,27\u00a0US$',
      'Comisión de plataforma (10 %)': '129,63\u00a0US$',
      Neto: '1.166,64\u00a0US$',
    });
    expect(lines()[0]).toEqual([
      'acme/echo: 0,05\u00a0US$ por llamada',
      '1.234',
      '3',
      '61,70\u00a0US$',
      '6,17\u00a0US$',
      '55,53\u00a0US$',
    ]);
  });

  it('without a priced endpoint: says how to set a price and links to the registry', async () => {
    mockFetch({
      'GET /api/account/earnings': { body: { data: { ...EARNINGS, rows: [] } } },
      'GET /api/aiendpoint': { body: { data: [endpointFixture({ isShared: true })] } },
    });
    open();
    expect(await screen.findByText('None of your endpoints has a price')).toBeInTheDocument();
    expect(screen.getByText(/go to its Settings tab and fill in Marketplace price/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the AI endpoint registry' })).toHaveAttribute(
      'href',
      '/registry',
    );
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });

  it('with a priced endpoint but no invoice yet: says when earnings appear', async () => {
    const priced = endpointFixture({
      isShared: true,
      config: routingConfigFixture('https://upstream.example/v1', {
        price: { per_call: 50_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
      }),
    });
    mockFetch({
      'GET /api/account/earnings': { body: { data: { ...EARNINGS, rows: [] } } },
      'GET /api/aiendpoint': { body: { data: [priced, endpointFixture({ id: 'other' })] } },
    });
    open();
    expect(await screen.findByText('No earnings yet')).toBeInTheDocument();
    expect(screen.getByText(/You have 1 priced endpoint\. /)).toBeInTheDocument();
  });

  it('a failed load says so and tries again', async () => {
    let fail = true;
    mockFetch({
      'GET /api/account/earnings': () =>
        fail ? { status: 500, body: { message: 'Something broke' } } : { body: { data: EARNINGS } },
    });
    const { user } = open();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your earnings could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('earnings-totals')).toBeInTheDocument());
  });
});
