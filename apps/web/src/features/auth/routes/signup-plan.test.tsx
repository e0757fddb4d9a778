import { afterEach, describe, expect, it, vi } from 'vitest';
import { userFixture } from '@/test/fixtures';
import { act, screen, waitFor, within } from '@testing-library/react';
import { at, mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { resetPayments } from '@/features/billing/lib/payments';
import { localConfig as billingConfig, plansAnswer } from '@/features/billing/test/fixtures';
import { clearSession, getSession } from '@/lib/session';
import SignupPlanPage from './signup-plan';

afterEach(() => {
  act(() => clearSession());
  resetPayments();
  vi.restoreAllMocks();
});

const localConfig = { 'GET /api/billing/config': { body: billingConfig } };
const plans = plansAnswer(null);

function open() {
  return renderPage(<SignupPlanPage />, { path: '/signup/plan', title: 'signupPlan' });
}

describe('/signup/plan', () => {
  it('lists every plan with its price, quota and rate; a paid plan asks for the card', async () => {
    signInAs({ plan: null, subscription: null, onboarded: false });
    mockApi({ ...localConfig, 'GET /api/account/plans': { body: plans } });
    const { user } = open();
    const free = await screen.findByRole('radio', { name: /Free/ });
    expect(free).toBeChecked();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    const pro = screen.getByRole('radio', { name: /Pro/ });
    expect(within(pro.closest('label')!).getByText('$29 / month')).toBeInTheDocument();
    expect(screen.getByText('$9 per seat / month')).toBeInTheDocument();
    expect(screen.getAllByText('1,000 gateway calls per month · 60 calls per minute per key')).toHaveLength(
      3,
    );
    await user.click(pro);
    expect(screen.getByLabelText('Card number')).toBeInTheDocument();
    expect(screen.getByLabelText('Expiration date')).toBeInTheDocument();
    expect(screen.getByLabelText('CVC')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please enter your card details')).toBeInTheDocument();
  });

  it('a paid plan with 4242: the card becomes a token, POST /api/account/plan charges it, then /welcome', async () => {
    signInAs({ plan: null, subscription: null, onboarded: false });
    const calls = mockApi({
      ...localConfig,
      'GET /api/account/plans': { body: plans },
      'POST /api/billing/local/token': {
        body: {
          data: { id: 'tok_4242', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } },
        },
      },
      'POST /api/account/plan': {
        body: { data: userFixture({ plan: 'pro', onboarded: false }), message: 'Plan saved' },
      },
      'GET /api/auth': {
        body: { data: { authenticated: true, ...userFixture({ plan: 'pro', onboarded: false }) } },
      },
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('radio', { name: /Pro/ }));
    await user.type(screen.getByLabelText('Card number'), '4242424242424242');
    await user.type(screen.getByLabelText('Expiration date'), '1230');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(at(router)).toBe('/welcome'));
    expect(calls.find((c) => c.path === '/api/account/plan')?.body).toEqual({
      plan: 'pro',
      token: 'tok_4242',
    });
    expect(getSession().user).toMatchObject({ plan: 'pro', subscription: { status: 'active' } });
  });

  it('free completes with POST /api/account/plan and goes to /welcome when not onboarded', async () => {
    signInAs({ plan: null, subscription: null, onboarded: false });
    const calls = mockApi({
      ...localConfig,
      'GET /api/account/plans': { body: plans },
      'POST /api/account/plan': {
        body: { data: userFixture({ plan: 'free', onboarded: false }), message: 'Plan saved' },
      },
      'GET /api/auth': {
        body: { data: { authenticated: true, ...userFixture({ plan: 'free', onboarded: false }) } },
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
    // The first plan is chosen, not updated: no "plan saved" toast on the way (issue 38).
    expect(screen.queryByText('Plan saved')).not.toBeInTheDocument();
  });

  it('an onboarded user goes to /dashboard after choosing', async () => {
    signInAs({ plan: null, subscription: null, onboarded: true });
    mockApi({
      ...localConfig,
      'GET /api/account/plans': { body: plans },
      'POST /api/account/plan': { body: { data: userFixture({ plan: 'free' }), message: 'Plan saved' } },
      'GET /api/auth': { status: 500, body: { message: 'down' } },
    });
    const { user, router } = open();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(at(router)).toBe('/dashboard'));
    // Even when the refresh fails, the plan answer's user (active free subscription) is kept.
    expect(getSession().user).toMatchObject({ plan: 'free', subscription: { status: 'active' } });
  });

  it('a refused choice stays on the page with an error notification', async () => {
    signInAs({ plan: null, subscription: null, onboarded: false });
    mockApi({
      ...localConfig,
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
