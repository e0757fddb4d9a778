import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, subscriptions } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { advance, newOwner, send } from './billing-helpers';
import { startStripeFake, STRIPE, useStripeFake } from './billing-stripe-fake';
import { insertKey, type TMockUpstream } from './gateway-fixtures';
import type { TTestApp } from './helpers';
import { chatOverHttp, sharePricedRoute, startListeningApp } from './marketplace-helpers';

let t: TTestApp;
let fake: Awaited<ReturnType<typeof startStripeFake>>;
let upstream: TMockUpstream;
let base: string;

beforeAll(async () => {
  fake = await startStripeFake();
  ({ t, upstream, base } = await startListeningApp({ billing: STRIPE }));
  useStripeFake(t.app, fake);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await upstream?.close();
});

async function call(key: string, routeName: string): Promise<number> {
  const answer = await chatOverHttp(base, key, routeName);
  await answer.arrayBuffer();
  return answer.status;
}

let seq = 0;
/** A provider's priced route, and a caller on the pro plan (Stripe card `card`) that called it 3 times. */
async function callerOfPricedRoute(card: string) {
  const provider = await newOwner(t.app, 'free');
  const routeName = `stripe${process.pid}/r${seq++}`;
  await sharePricedRoute(t.app, provider, routeName, `${upstream.url}/ok`, {
    per_call: 120_000,
    per_1m_input_tokens: 0,
    per_1m_output_tokens: 0,
  });
  const caller = await newOwner(t.app);
  const plan = await send(t.app, caller.headers, 'POST', '/api/account/plan', {
    plan: 'pro',
    token: 'tok_visa',
  });
  expect(plan.statusCode, plan.body).toBe(200);
  if (card !== 'tok_visa') {
    const changed = await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token: card });
    expect(changed.statusCode, changed.body).toBe(200);
  }
  const key = await insertKey(t.db, t.config.secret, caller.accountId);
  for (let i = 0; i < 3; i++) expect(await call(key.raw, routeName)).toBe(200);
  await gatewayStateOf(t.app).meter.flush();
  return { caller, routeName };
}

async function renewalOf(accountId: string) {
  const rows = await t.db.select().from(invoices).where(eq(invoices.accountId, accountId));
  return rows.find((row) => row.lines.some((line) => line.description.startsWith('Marketplace')))!;
}

function stripeInvoicesOf(airInvoiceId: string) {
  return [...fake.invoices.values()].filter(
    (invoice) => (invoice.metadata as Record<string, string>).air_invoice_id === airInvoiceId,
  );
}

describe('marketplace lines in Stripe mode', () => {
  it('sends the renewal lines to Stripe as invoice items of one Stripe invoice, paid with the subscription', async () => {
    const { caller, routeName } = await callerOfPricedRoute('tok_visa');
    await advance(t.app, 31);
    const renewal = await renewalOf(caller.accountId);
    expect(renewal.status).toBe('paid');
    expect(renewal.total).toBe(2900 + 36);

    const [stripeInvoice, ...more] = stripeInvoicesOf(renewal.id);
    expect(more).toEqual([]);
    expect(stripeInvoice).toMatchObject({ status: 'paid', total: renewal.total, currency: renewal.currency });
    const items = (stripeInvoice!.lines as { data: { amount: number; description: string }[] }).data;
    expect(items.map((item) => [item.description, item.amount])).toEqual(
      renewal.lines.map((line) => [line.description, line.amount]),
    );
    expect(items.find((item) => item.description.includes(routeName))?.amount).toBe(36);
    // Its PaymentIntent paid the renewal and says so in its metadata (the webhook reads it).
    const intent = (
      stripeInvoice!.payments as { data: { payment: { payment_intent: Record<string, unknown> } }[] }
    ).data[0]!.payment.payment_intent;
    expect(intent).toMatchObject({ status: 'succeeded', amount: renewal.total });
    expect((intent.metadata as Record<string, string>).invoice_id).toBe(renewal.id);
    expect(renewal.providerRef).toBe(intent.id);
    // Not charged a second time as a bare PaymentIntent.
    expect(
      fake.requests.filter(
        (r) => r.path === '/v1/payment_intents' && r.params.get('metadata[invoice_id]') === renewal.id,
      ),
    ).toEqual([]);
  });

  it('a refused card follows the dunning: the same Stripe invoice is paid again at each retry', async () => {
    const { caller } = await callerOfPricedRoute('tok_chargeCustomerFail');
    await advance(t.app, 31);
    const renewal = await renewalOf(caller.accountId);
    expect(renewal.status).toBe('open');
    let [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, caller.accountId));
    expect(sub).toMatchObject({ status: 'requires_payment_method', failedAttempts: 1 });

    await advance(t.app, 1);
    [sub] = await t.db.select().from(subscriptions).where(eq(subscriptions.accountId, caller.accountId));
    expect(sub).toMatchObject({ status: 'requires_payment_method', failedAttempts: 2 });
    const stripeInvoices = stripeInvoicesOf(renewal.id);
    expect(stripeInvoices).toHaveLength(1);
    expect(stripeInvoices[0]).toMatchObject({ status: 'open', total: renewal.total });
    const pays = fake.requests.filter(
      (r) => r.path === `/v1/invoices/${stripeInvoices[0]!.id as string}/pay`,
    );
    expect(pays.map((r) => r.idempotencyKey)).toEqual([`invoice_${renewal.id}_0`, `invoice_${renewal.id}_1`]);
    expect((await renewalOf(caller.accountId)).status).toBe('open');
  });

  it('a renewal refused, then paid with a new card: the Stripe invoice left open is voided', async () => {
    const { caller } = await callerOfPricedRoute('tok_chargeCustomerFail');
    await advance(t.app, 31);
    const renewal = await renewalOf(caller.accountId);
    expect(renewal.status).toBe('open');
    expect(stripeInvoicesOf(renewal.id)).toMatchObject([{ status: 'open' }]);

    const changed = await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token: 'tok_visa' });
    expect(changed.statusCode, changed.body).toBe(200);
    const paid = await renewalOf(caller.accountId);
    expect(paid.status).toBe('paid');
    // Paid by a PaymentIntent of its own: the Stripe invoice can no longer be paid a second time.
    const [stripeInvoice] = stripeInvoicesOf(renewal.id);
    expect(stripeInvoice).toMatchObject({ status: 'void', total: renewal.total });
    const intent = (
      stripeInvoice!.payments as { data: { payment: { payment_intent: Record<string, unknown> } }[] }
    ).data[0]!.payment.payment_intent;
    expect(paid.providerRef).not.toBe(intent.id);
  });

  it('the dunning gives up: the Stripe invoice is marked uncollectible with the AIR invoice', async () => {
    const { caller } = await callerOfPricedRoute('tok_chargeCustomerFail');
    await advance(t.app, 31);
    await advance(t.app, 1);
    await advance(t.app, 3);
    const [sub] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.accountId, caller.accountId));
    expect(sub).toMatchObject({ status: 'canceled' });
    const renewal = await renewalOf(caller.accountId);
    expect(renewal.status).toBe('uncollectible');
    expect(stripeInvoicesOf(renewal.id)).toMatchObject([{ status: 'uncollectible' }]);
  });

  it('a Stripe invoice paid by its own payment stays paid (nothing voided)', async () => {
    const { caller } = await callerOfPricedRoute('tok_visa');
    await advance(t.app, 31);
    const renewal = await renewalOf(caller.accountId);
    expect(stripeInvoicesOf(renewal.id)).toMatchObject([{ status: 'paid' }]);
    const [stripeInvoice] = stripeInvoicesOf(renewal.id);
    expect(
      fake.requests
        .filter((r) => r.path.startsWith(`/v1/invoices/${stripeInvoice!.id as string}/`))
        .map((r) => r.path),
    ).not.toContainEqual(expect.stringMatching(/void|mark_uncollectible/));
  });
});
