import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TUser } from '@air/shared/schemas/user';
import { subscriptionFixture } from '@/test/fixtures';
import { act, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { mockApi, renderPage, signInAs, type TMockHandlers } from '@/features/account/test/page-harness';
import { clearSession, getSession } from '@/lib/session';
import { resetPayments } from '../lib/payments';
import { invoice, localConfig, plansAnswer, subscription, usage, visa } from '../test/fixtures';
import BillingPage from './billing';

afterEach(() => {
  act(() => clearSession());
  resetPayments();
  vi.restoreAllMocks();
});

/** `GET /api/auth` as the server answers it: the signed-in user (read at call time), changed by `changes`. */
function authAnswer(changes: Partial<TUser> = {}) {
  return { body: { data: { authenticated: true as const, ...getSession().user!, ...changes } } };
}

function billingApi(overrides: TMockHandlers = {}) {
  return mockApi({
    'GET /api/billing/config': { body: localConfig },
    'GET /api/account/plans': { body: plansAnswer('team') },
    'GET /api/account/subscription': { body: { data: subscription() } },
    'GET /api/account/card': { body: { data: visa } },
    'GET /api/account/invoice': { body: { data: { items: [invoice], next_cursor: null } } },
    'GET /api/account/usage': { body: { data: usage } },
    'GET /api/auth': () => authAnswer(),
    ...overrides,
  });
}

function open() {
  return renderPage(<BillingPage />, { path: '/account/billing', title: 'billing' });
}

/** The page of an account on the free plan: one seat, no card, and the invoices given (none). */
function openOnFreePlan(invoices: (typeof invoice)[] = []) {
  signInAs({ plan: 'free' });
  billingApi({
    'GET /api/account/plans': { body: plansAnswer('free') },
    'GET /api/account/subscription': {
      body: { data: subscription({ plan: 'free', plan_name: 'Free', seats: 1, seat_price: 0 }) },
    },
    'GET /api/account/card': { body: { data: null } },
    'GET /api/account/invoice': { body: { data: { items: invoices, next_cursor: null } } },
  });
  return open();
}

export async function typeCard(user: ReturnType<typeof userEvent.setup>, number: string) {
  await user.type(screen.getByLabelText('Card number'), number);
  await user.type(screen.getByLabelText('Expiration date'), '1230');
  await user.type(screen.getByLabelText('CVC'), '123');
}

describe('/account/billing', () => {
  it('a paid plan: totals (seat price / 100, seats × price), usage, and the tabs Plan, Card, Invoices', async () => {
    signInAs({ plan: 'team' });
    billingApi();
    const { user } = open();
    expect(await screen.findByRole('tab', { name: 'Plan' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('3 × $9.50')).toBeInTheDocument();
    expect(screen.getByText('Total $28.50 / month')).toBeInTheDocument();
    expect(screen.getByText('Renews on Dec 1, 2026')).toBeInTheDocument();
    expect(screen.getByText('120 of 1,000 calls')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Team/ })).toBeChecked();

    await user.click(screen.getByRole('tab', { name: 'Card' }));
    expect(await screen.findByText('Visa ending in 4242')).toBeInTheDocument();
    expect(screen.getByText('Expires 04/31')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Invoices' }));
    const row = (await screen.findByRole('table')).querySelector('tr[data-invoice]') as HTMLElement;
    expect(within(row).getByText('Paid')).toBeInTheDocument();
    expect(within(row).getByText('$28.50')).toBeInTheDocument();
    const pdf = within(row).getByRole('link', { name: 'PDF of invoice AIR-2026-0001 (opens in a new tab)' });
    expect(pdf).toHaveAttribute('href', invoice.invoice_pdf);
    expect(pdf).toHaveAttribute('target', '_blank');
    // The phone layout lists the same invoice as a card with its own PDF link.
    const card = screen.getByRole('listitem');
    expect(within(card).getByText('$28.50')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /AIR-2026-0001/ })).toHaveAttribute(
      'href',
      invoice.invoice_pdf,
    );
  });

  it('the free plan shows Plan and Card (a card opens priced marketplace routes), no Invoices before one', async () => {
    const { user } = openOnFreePlan();
    expect(await screen.findByRole('tab', { name: 'Plan' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Invoices' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Card' }));
    expect(await screen.findByText('No card on file.')).toBeInTheDocument();
    expect(screen.getByText(/a card is needed only to call priced marketplace routes/)).toBeInTheDocument();
    expect(screen.getByLabelText('Card number')).toBeInTheDocument();
  });

  it('the free plan shows Invoices once a month of priced marketplace calls made one', async () => {
    const { user } = openOnFreePlan([invoice]);
    await user.click(await screen.findByRole('tab', { name: 'Invoices' }));
    expect((await screen.findAllByText(invoice.number)).length).toBeGreaterThan(0);
  });

  it('pages the invoices past the first page with Next and Previous, from the keyboard', async () => {
    signInAs({ plan: 'team' });
    // The server's first page (50 by default; 3 here) says where the next starts.
    const newest = Array.from({ length: 3 }, (_, i) => ({
      ...invoice,
      id: `0b7c1f52-3f0e-4e53-9f7e-0c7a1b2c${String(i).padStart(4, '0')}`,
      number: `AIR-2026-${String(100 - i).padStart(4, '0')}`,
    }));
    const oldest = { ...invoice, number: 'AIR-2022-0001' };
    const calls = billingApi({
      'GET /api/account/invoice': (_body, { url }) =>
        url.searchParams.get('cursor') === 'after-50'
          ? { body: { data: { items: [oldest], next_cursor: null } } }
          : { body: { data: { items: newest, next_cursor: 'after-50' } } },
    });
    const { user } = open();
    await user.click(await screen.findByRole('tab', { name: 'Invoices' }));
    const pager = await screen.findByRole('navigation', { name: 'Invoice pages' });
    expect(within(pager).getByText('Page 1')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    const next = within(pager).getByRole('button', { name: 'Next' });
    next.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Page 2')).toBeInTheDocument();
    expect(screen.getAllByText('AIR-2022-0001').length).toBeGreaterThan(0);
    expect(screen.queryByText('AIR-2026-0100')).toBeNull();
    expect(calls.some((c) => c.path === '/api/account/invoice' && c.search === '?cursor=after-50')).toBe(
      true,
    );
    // The last page: Next is off, and the focus it had went to Previous, which Space presses.
    expect(next).toBeDisabled();
    const previous = within(pager).getByRole('button', { name: 'Previous' });
    expect(previous).toHaveFocus();
    await user.keyboard(' ');
    expect(await screen.findByText('Page 1')).toBeInTheDocument();
    expect(screen.getAllByText('AIR-2026-0100').length).toBeGreaterThan(0);
    expect(next).toHaveFocus();
  });

  it.each([
    ['requires_payment_method', 'Payment failed', /Update your card/],
    ['requires_action', 'Authorization needed', /Authorize it with your bank/],
    ['canceled', 'Subscription canceled', /Choose a new plan/],
  ])('a %s subscription shows its banner', async (status, title, text) => {
    signInAs({ plan: 'team', subscription: subscriptionFixture({ status: status as 'canceled' }) });
    billingApi({
      'GET /api/account/subscription': { body: { data: subscription({ status: status as 'canceled' }) } },
    });
    open();
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent(title);
    expect(banner).toHaveTextContent(text);
    expect(banner).toHaveAttribute('data-banner', status);
  });

  it('requires_action: "Authorize payment" runs the 3-D Secure dialog, repeats with the payment, and the banner clears', async () => {
    signInAs({ plan: 'team', subscription: subscriptionFixture({ status: 'requires_action' }) });
    let status: 'requires_action' | 'active' = 'requires_action';
    const calls = billingApi({
      'GET /api/account/subscription': () => ({ body: { data: subscription({ status }) } }),
      'POST /api/account/subscription/authorize': (body) => {
        if (!(body as { payment?: unknown } | undefined)?.payment) {
          return { body: { requires_payment_action: true as const, client_secret: 'pi_renewal_secret_abc' } };
        }
        status = 'active';
        return {
          body: {
            data: subscription({ status }),
            message: 'Your payment is authorized and your subscription is active again.',
          },
        };
      },
      'POST /api/billing/local/confirm': {
        body: { data: { payment_intent: { id: 'pi_renewal', status: 'succeeded' as const } } },
      },
      'GET /api/auth': () => authAnswer({ subscription: subscriptionFixture({ status: 'active' }) }),
    });
    const { user } = open();
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveAttribute('data-banner', 'requires_action');
    await user.click(within(banner).getByRole('button', { name: 'Authorize payment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Authenticate payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Complete authentication' }));
    expect(
      await screen.findByText('Your payment is authorized and your subscription is active again.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Authorization needed')).toBeNull());
    expect(calls.filter((c) => c.path === '/api/account/subscription/authorize').map((c) => c.body)).toEqual([
      {},
      { payment: { payment_intent: 'pi_renewal' } },
    ]);
    expect(calls.find((c) => c.path === '/api/billing/local/confirm')?.body).toEqual({
      client_secret: 'pi_renewal_secret_abc',
      outcome: 'complete',
    });
    expect(getSession().user?.subscription).toMatchObject({ status: 'active' });
  });

  it('picking free warns of the period end, then shows the server notice with the date', async () => {
    signInAs({ plan: 'team' });
    const calls = billingApi({
      'PATCH /api/account/plan': {
        body: {
          data: {
            ...getSession().user!,
            plan: 'team',
            subscription: { ...subscription({ cancel_at_period_end: true }) },
          },
          message: 'Your subscription will be cancelled on Dec 1, 2026.',
        },
      },
    });
    const { user } = open();
    await user.click(await screen.findByRole('radio', { name: /Free/ }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your paid subscription ends at the end of the current period, on Dec 1, 2026.',
    );
    await user.click(screen.getByRole('button', { name: 'Change plan' }));
    expect(
      await screen.findByText('Your subscription will be cancelled on Dec 1, 2026.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ body: { plan: 'free' } });
    expect(getSession().user?.plan).toBe('team');
  });

  it('a declined card shows the processor message on the card field and keeps the card on file', async () => {
    signInAs({ plan: 'team' });
    const calls = billingApi({
      'POST /api/billing/local/token': { body: { data: { id: 'tok_declined', card: visa } } },
      'PATCH /api/account/card': {
        status: 400,
        body: { message: 'Your card was declined.', code: 'card_declined', inputError: 'token' },
      },
    });
    const { user } = open();
    await user.click(await screen.findByRole('tab', { name: 'Card' }));
    await typeCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Update card' }));
    const field = screen.getByRole('group', { name: 'New card' }).closest('[data-field]') as HTMLElement;
    expect(await within(field).findByText('Your card was declined.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/billing/local/token')?.body).toEqual({
      number: '4000000000000002',
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
    });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ token: 'tok_declined' });
    expect(screen.getByText('Visa ending in 4242')).toBeInTheDocument();
  });

  it('a card the processor refuses at tokenisation shows its message on the card field, nothing is sent', async () => {
    signInAs({ plan: 'team' });
    const calls = billingApi({
      'POST /api/billing/local/token': {
        status: 400,
        body: { message: 'Your card has expired.', code: 'expired_card', inputError: 'exp' },
      },
    });
    const { user } = open();
    await user.click(await screen.findByRole('tab', { name: 'Card' }));
    await typeCard(user, '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Update card' }));
    expect(await screen.findByText('Your card has expired.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('a card update clears the payment-failed banner once the server has the subscription active', async () => {
    signInAs({ plan: 'team', subscription: subscriptionFixture({ status: 'requires_payment_method' }) });
    let status: 'requires_payment_method' | 'active' = 'requires_payment_method';
    billingApi({
      'GET /api/account/subscription': () => ({ body: { data: subscription({ status }) } }),
      'POST /api/billing/local/token': { body: { data: { id: 'tok_good', card: visa } } },
      'PATCH /api/account/card': () => {
        status = 'active';
        return { body: { data: visa, message: 'Card updated' } };
      },
      'GET /api/auth': () => authAnswer({ subscription: subscriptionFixture({ status: 'active' }) }),
    });
    const { user } = open();
    expect(await screen.findByRole('alert')).toHaveTextContent('Payment failed');
    await user.click(screen.getByRole('tab', { name: 'Card' }));
    await typeCard(user, '4242424242424242');
    await user.click(within(screen.getByRole('tabpanel')).getByRole('button', { name: 'Update card' }));
    expect(await screen.findByText('Card updated')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Payment failed')).toBeNull());
    expect(getSession().user?.subscription).toMatchObject({ status: 'active' });
  });

  it('payment failed: the banner says when the card is tried again and "Update card" opens the card form', async () => {
    signInAs({ plan: 'team', subscription: subscriptionFixture({ status: 'requires_payment_method' }) });
    billingApi({
      'GET /api/account/subscription': {
        body: {
          data: subscription({
            status: 'requires_payment_method',
            seats: 2,
            seat_price: 1900,
            next_attempt_at: '2026-12-02T00:00:00.000Z',
          }),
        },
      },
    });
    const { user } = open();
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('We will try your card again on Dec 2, 2026.');
    // Past due: no "Renews on", the retry instead, and the quota says it is the free plan's for now.
    expect(screen.queryByText(/Renews on/)).toBeNull();
    expect(screen.getByText('Payment due, retrying on Dec 2, 2026')).toBeInTheDocument();
    expect(screen.getByText('Free plan limits until the payment goes through')).toBeInTheDocument();
    await user.click(within(banner).getByRole('button', { name: 'Update card' }));
    expect(screen.getByRole('tab', { name: 'Card' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(screen.getByLabelText('Card number')).toHaveFocus());
  });

  it('the free plan: no renewal date, no "1 × $0", and "Free" printed once on its plan card', async () => {
    openOnFreePlan();
    await screen.findByRole('tab', { name: 'Plan' });
    expect(screen.queryByText(/Renews on|Ends on/)).toBeNull();
    expect(screen.queryByText(/1 × \$0/)).toBeNull();
    expect(screen.queryByText('Seats')).toBeNull();
    const freeCard = screen.getByRole('radio', { name: /Free/ }).closest('label') as HTMLElement;
    expect(within(freeCard).getAllByText(/Free/)).toHaveLength(1);
    expect(within(freeCard).getByText('No card needed')).toBeInTheDocument();
  });

  it('a plan change previews seats, the prorated difference and the amount due before the button', async () => {
    signInAs({ plan: 'team' });
    const calls = billingApi({
      'GET /api/account/plan/preview': {
        body: {
          data: {
            plan: 'pro',
            plan_name: 'Pro',
            mode: 'prorate' as const,
            seats: 1,
            seat_price: 2900,
            proration: 1234,
            amount_due: 1234,
            credit: 0,
            renewal_amount: 2900,
            currency: 'usd',
            currency_symbol: '$',
            interval: 'month',
            period_end: '2026-12-01T00:00:00.000Z',
          },
        },
      },
    });
    const { user } = open();
    await user.click(await screen.findByRole('radio', { name: /Pro/ }));
    const preview = await screen.findByRole('region', { name: 'What this change costs' });
    expect(within(preview).getByText('1 × $29')).toBeInTheDocument();
    expect(within(preview).getByText('Prorated difference to Dec 1, 2026')).toBeInTheDocument();
    expect(within(preview).getByText('Due now').nextSibling).toHaveTextContent('$12.34');
    expect(within(preview).getByText('Then $29 / month')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/account/plan/preview')?.search).toBe('?plan=pro');
    // The preview stands before the button.
    const button = screen.getByRole('button', { name: 'Change plan' });
    expect(preview.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a failed 3-D Secure shows its message under the card field, as a declined card does, and no toast', async () => {
    signInAs({ plan: 'team', subscription: subscriptionFixture({ status: 'requires_payment_method' }) });
    billingApi({
      'GET /api/account/subscription': {
        body: { data: subscription({ status: 'requires_payment_method' }) },
      },
      'POST /api/billing/local/token': { body: { data: { id: 'tok_threeds', card: visa } } },
      'PATCH /api/account/card': {
        body: { requires_payment_action: true as const, client_secret: 'pi_x_secret_y' },
      },
      'POST /api/billing/local/confirm': {
        status: 400,
        body: {
          message: 'We are unable to authenticate your payment method.',
          code: 'payment_intent_authentication_failure',
          inputError: 'payment',
        },
      },
    });
    const { user } = open();
    await user.click(await screen.findByRole('tab', { name: 'Card' }));
    await typeCard(user, '4000002500003155');
    await user.click(within(screen.getByRole('tabpanel')).getByRole('button', { name: 'Update card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Authenticate payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Fail authentication' }));
    const field = screen.getByRole('group', { name: 'New card' }).closest('[data-field]') as HTMLElement;
    expect(
      await within(field).findByText('We are unable to authenticate your payment method.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).toBeNull();
  });
});
