import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { at, mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import SignupPlanPage from './signup-plan';

afterEach(() => {
  act(() => clearSession());
  vi.restoreAllMocks();
});

const plan = (id: string, name: string, price: number, type = 'flat') => ({
  id,
  name,
  price,
  currency: { code: 'usd', symbol: '$' },
  interval: 'month',
  type,
  quota_calls_month: 1000,
  rate_limit_per_minute: 60,
});
const plans = {
  data: {
    plans: [plan('free', 'Free', 0), plan('pro', 'Pro', 2900), plan('team', 'Team', 900, 'tiered')],
    active: null,
    options: [],
  },
};

function open() {
  return renderPage(<SignupPlanPage />, { path: '/signup/plan', title: 'signupPlan' });
}

describe('/signup/plan', () => {
  it('lists every plan; paid plans are shown as not yet available and cannot be chosen', async () => {
    signInAs({ plan: null, subscription: null, onboarded: false });
    mockApi({ 'GET /api/account/plans': { body: plans } });
    open();
    const free = await screen.findByRole('radio', { name: /Free/ });
    expect(free).toBeChecked();
    const pro = screen.getByRole('radio', { name: /Pro/ });
    expect(pro).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Team/ })).toBeDisabled();
    const proCard = pro.closest('label')!;
    expect(within(proCard).getByText('Not available yet')).toBeInTheDocument();
    expect(within(proCard).getByText('$29 / month')).toBeInTheDocument();
    expect(screen.getByText('$9 per seat / month')).toBeInTheDocument();
    expect(screen.getAllByText('1,000 gateway calls per month · 60 calls per minute per key')).toHaveLength(
      3,
    );
  });

  it('free completes with POST /api/account/plan and goes to /welcome when not onboarded', async () => {
    signInAs({ plan: null, subscription: null, onboarded: false });
    const calls = mockApi({
      'GET /api/account/plans': { body: plans },
      'POST /api/account/plan': { body: { data: { plan: 'free' } } },
      'GET /api/auth': {
        body: { data: { authenticated: true, plan: 'free', subscription: { status: 'active' } } },
      },
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(at(router)).toBe('/welcome'));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/account/plan',
      body: { plan: 'free' },
    });
    expect(getSession().user).toMatchObject({ plan: 'free', subscription: { status: 'active' } });
  });

  it('an onboarded user goes to /dashboard after choosing', async () => {
    signInAs({ plan: null, subscription: null, onboarded: true });
    mockApi({
      'GET /api/account/plans': { body: plans },
      'POST /api/account/plan': { body: {} },
      'GET /api/auth': { status: 500, body: { message: 'down' } },
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(at(router)).toBe('/dashboard'));
    // Even when the refresh fails, the guard sees an active free subscription.
    expect(getSession().user).toMatchObject({ plan: 'free', subscription: { status: 'active' } });
  });

  it('a refused choice stays on the page with an error notification', async () => {
    signInAs({ plan: null, subscription: null, onboarded: false });
    mockApi({
      'GET /api/account/plans': { body: plans },
      'POST /api/account/plan': { status: 400, body: { message: 'Unknown plan' } },
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Unknown plan')).toBeInTheDocument();
    expect(at(router)).toBe('/signup/plan');
    expect(getSession().user?.plan).toBeNull();
  });
});
