import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { at, mockApi, renderPage, signInAs } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import { resetPayments } from '../lib/payments';
import { localConfig, plansAnswer, subscription, visa } from '../test/fixtures';
import type { TReply } from '@/test/api-mock';
import { userFixture } from '@/test/fixtures';
import UpgradePage from './upgrade';

afterEach(() => {
  act(() => clearSession());
  resetPayments();
  vi.restoreAllMocks();
});

const secret = 'pi_3ds_secret_abc';

function upgradeApi(confirm: TReply<'POST /api/billing/local/confirm'>) {
  let upgrades = 0;
  const calls = mockApi({
    'GET /api/billing/config': { body: localConfig },
    'GET /api/account/plans': { body: plansAnswer('free') },
    'GET /api/account/card': { body: { data: null } },
    'POST /api/billing/local/token': { body: { data: { id: 'tok_3ds', card: visa } } },
    'POST /api/account/upgrade': () => {
      upgrades += 1;
      return upgrades === 1
        ? { body: { requires_payment_action: true, client_secret: secret } }
        : {
            body: {
              data: userFixture({
                plan: 'pro',
                subscription: subscription({ plan: 'pro', plan_name: 'Pro', seats: 1 }),
              }),
              message: 'Plan updated',
            },
          };
    },
    'POST /api/billing/local/confirm': confirm,
    'GET /api/auth': () => ({ body: { data: { authenticated: true as const, ...getSession().user! } } }),
  });
  return calls;
}

function open(url = '/account/upgrade?plan=pro') {
  return renderPage(<UpgradePage />, { path: '/account/upgrade', url, title: 'upgrade' });
}

describe('/account/upgrade', () => {
  it('pays with a 3-D Secure card: dialog, confirm, the same request again with the payment, then /dashboard', async () => {
    signInAs({ plan: 'free' });
    const calls = upgradeApi({ body: { data: { payment_intent: { id: 'pi_3ds', status: 'succeeded' } } } });
    const { user, router } = open();
    expect(await screen.findByRole('radio', { name: /Pro/ })).toBeChecked();
    expect(screen.queryByRole('radio', { name: /Free/ })).toBeNull();
    await user.type(screen.getByLabelText('Card number'), '4000002500003155');
    await user.type(screen.getByLabelText('Expiration date'), '1230');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.click(screen.getByRole('button', { name: 'Upgrade' }));

    const dialog = await screen.findByRole('dialog', { name: 'Authenticate payment' });
    expect(dialog).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Complete authentication' }));

    expect(
      await screen.findByText('Your plan is upgraded. Taking you to the dashboard…'),
    ).toBeInTheDocument();
    const upgrades = calls.filter((c) => c.path === '/api/account/upgrade');
    expect(upgrades.map((c) => c.body)).toEqual([
      { plan: 'pro', token: 'tok_3ds' },
      { plan: 'pro', token: 'tok_3ds', payment: { payment_intent: 'pi_3ds' } },
    ]);
    expect(calls.find((c) => c.path === '/api/billing/local/confirm')?.body).toEqual({
      client_secret: secret,
      outcome: 'complete',
    });
    expect(getSession().user?.plan).toBe('pro');
    await waitFor(() => expect(at(router)).toBe('/dashboard'), { timeout: 8000 });
  }, 20_000);

  it('a failed authentication shows the processor message and does not repeat the request', async () => {
    signInAs({ plan: 'free' });
    const calls = upgradeApi({
      status: 400,
      body: {
        message: 'We are unable to authenticate your payment method.',
        code: 'payment_intent_authentication_failure',
      },
    });
    const { user, router } = open();
    await user.type(await screen.findByLabelText('Card number'), '4000002500003155');
    await user.type(screen.getByLabelText('Expiration date'), '1230');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.click(screen.getByRole('button', { name: 'Upgrade' }));
    await user.click(await screen.findByRole('button', { name: 'Fail authentication' }));
    expect(
      (await screen.findAllByText('We are unable to authenticate your payment method.')).length,
    ).toBeGreaterThan(0);
    expect(calls.filter((c) => c.path === '/api/account/upgrade')).toHaveLength(1);
    expect(at(router)).toBe('/account/upgrade?plan=pro');
    expect(getSession().user?.plan).toBe('free');
  });

  it('shows an American Express number as its card prints it and asks for its 4-digit CVC', async () => {
    signInAs({ plan: 'free' });
    upgradeApi({ body: { data: { payment_intent: { id: 'pi_3ds', status: 'succeeded' } } } });
    const { user } = open();
    const number = await screen.findByLabelText('Card number');
    expect(screen.getByLabelText('CVC')).toHaveAttribute('placeholder', '123');
    await user.type(number, '3782822463100059');
    expect(number).toHaveValue('3782 822463 10005');
    expect(screen.getByLabelText('CVC')).toHaveAttribute('placeholder', '1234');
  });

  it('with a card on file no card is asked and the plan is charged to it', async () => {
    signInAs({ plan: 'pro' });
    const calls = mockApi({
      'GET /api/billing/config': { body: localConfig },
      'GET /api/account/plans': { body: plansAnswer('pro') },
      'GET /api/account/card': { body: { data: visa } },
      'POST /api/account/upgrade': {
        body: { data: userFixture({ plan: 'team', subscription: subscription() }), message: 'Plan updated' },
      },
      'GET /api/auth': () => ({ body: { data: { authenticated: true as const, ...getSession().user! } } }),
    });
    const { user } = open('/account/upgrade?plan=team');
    expect(await screen.findByRole('radio', { name: /Team/ })).toBeChecked();
    expect(screen.queryByLabelText('Card number')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Upgrade' }));
    expect(
      await screen.findByText('Your plan is upgraded. Taking you to the dashboard…'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/account/upgrade')?.body).toEqual({ plan: 'team' });
  });
});
