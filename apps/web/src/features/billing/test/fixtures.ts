import type { TPlansAnswer } from '@air/shared/schemas/account';
import type { TBillingConfig, TCard, TInvoice, TSubscription } from '@air/shared/schemas/billing';
import type { TUsage } from '@air/shared/schemas/usage';

/** Billing answers as the server gives them (shapes from @air/shared), for the page tests. */

const plan = (id: string, name: string, price: number, type = 'flat') => ({
  id,
  name,
  price,
  currency: { code: 'usd', symbol: '$' },
  interval: 'month',
  type,
  quota_calls_month: 1000,
  rate_limit_per_minute: 60,
  tokens_per_minute: null,
});

export function plansAnswer(active: string | null): { data: TPlansAnswer } {
  return {
    data: {
      plans: [plan('free', 'Free', 0), plan('pro', 'Pro', 2900), plan('team', 'Team', 900, 'tiered')],
      active,
      options: [],
    },
  };
}

export function subscription(patch: Partial<TSubscription> = {}): TSubscription {
  return {
    plan: 'team',
    plan_name: 'Team',
    status: 'active',
    cancel_at_period_end: false,
    seats: 3,
    seat_price: 950,
    currency_symbol: '$',
    interval: 'month',
    current_period_start: '2026-11-01T00:00:00.000Z',
    current_period_end: '2026-12-01T00:00:00.000Z',
    next_attempt_at: null,
    ...patch,
  };
}

export const visa: TCard = { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 };

export const invoice: TInvoice = {
  id: '0b7c1f52-3f0e-4e53-9f7e-0c7a1b2c3d4e',
  number: 'AIR-2026-0001',
  date: '2026-11-01T10:20:30.000Z',
  status: 'paid',
  total: 2850,
  currency: 'usd',
  currency_symbol: '$',
  lines: [],
  invoice_pdf: '/api/account/invoice/0b7c1f52-3f0e-4e53-9f7e-0c7a1b2c3d4e/pdf?token=t',
};

export const usage: TUsage[] = [
  {
    label: 'calls',
    total: 120,
    quota: 1000,
    period: '2026-11',
    period_start: '2026-11-01T00:00:00.000Z',
    period_end: '2026-12-01T00:00:00.000Z',
  },
];

export const localConfig: { data: TBillingConfig } = { data: { provider: 'local', publishable_key: null } };
