import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TApp } from '../src/app';
import { StripeProvider } from '../src/modules/billing/stripe/provider';
import type { TConnectFake } from './stripe-connect-fake';

/**
 * A small loopback fake of the Stripe endpoints the provider calls (customers, payment methods,
 * payment intents), with Stripe's idempotency: a repeated Idempotency-Key answers the first
 * result (header `Idempotent-Replayed: true`), and the same key with other parameters is refused
 * (`idempotency_error`). Test tokens: `tok_visa` succeeds, `tok_chargeDeclined` is declined when
 * attached, `tok_threeDSecureRequired` needs 3-D Secure on session only (set up for later
 * payments), `tok_authenticationRequired` needs it on every payment: on session `requires_action`,
 * off session refused with `authentication_required` (the test confirms a payment with
 * `authenticate`, as Stripe.js does in the browser). `tok_chargeCustomerFail` attaches but every
 * payment with it is declined. Invoices (a renewal with marketplace lines): created as drafts,
 * invoice items added to them, finalized (which makes the invoice's PaymentIntent), listed by
 * customer, and paid off session with a payment method under the same card rules. With
 * `connect` (stripe-connect-fake.ts), also Connect accounts, transfers, refunds and disputes,
 * checked against Stripe's published OpenAPI document.
 */
/** The billing settings of a test app on Stripe (test keys; the calls go to the fake). */
export const STRIPE = {
  provider: 'stripe' as const,
  secretKey: 'sk_test_fake',
  publishableKey: 'pk_test_fake',
  webhookSecret: 'whsec_test_fake',
};

/** The same provider class the app uses, pointed at the loopback fake instead of api.stripe.com. */
export function useStripeFake(app: TApp, fake: { port: number }): void {
  app.billing.provider = new StripeProvider(STRIPE, { host: '127.0.0.1', port: fake.port, protocol: 'http' });
}

export async function startStripeFake(options: { connect?: TConnectFake } = {}) {
  const customers = new Map<string, Record<string, unknown>>();
  const methods = new Map<string, { id: string; token: string; customer: string | null; last4: string }>();
  const intents = new Map<string, Record<string, unknown>>();
  const invoices = new Map<string, Record<string, unknown>>();
  const idempotent = new Map<string, { request: string; answer: { status: number; body: unknown } }>();
  const requests: {
    method: string;
    path: string;
    idempotencyKey: string | undefined;
    params: URLSearchParams;
    replayed: boolean;
  }[] = [];
  /** Paths whose next answer is lost on the way back (the connection drops after the work is done). */
  const dropAnswer = new Set<string>();
  let seq = 0;
  const id = (prefix: string) => `${prefix}_fake${++seq}`;

  const notFound = (message: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', message } },
  });
  const cardError = (code: string, message: string, intent?: unknown) => ({
    status: 402,
    body: { error: { type: 'card_error', code, message, ...(intent ? { payment_intent: intent } : {}) } },
  });

  function handle(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } {
    const pmFor = (pm: { id: string; customer: string | null; last4: string }) => ({
      id: pm.id,
      object: 'payment_method',
      type: 'card',
      customer: pm.customer,
      card: { brand: 'visa', last4: pm.last4, exp_month: 12, exp_year: 2034 },
    });
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', name: form.get('name') };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/payment_methods') {
      const token = form.get('card[token]') ?? '';
      const last4 = {
        tok_visa: '4242',
        tok_chargeDeclined: '0002',
        tok_threeDSecureRequired: '3155',
        tok_authenticationRequired: '3184',
        tok_chargeCustomerFail: '0341',
      }[token];
      if (!last4)
        return { status: 400, body: { error: { type: 'invalid_request_error', message: 'No such token' } } };
      const pm = { id: id('pm'), token, customer: null, last4 };
      methods.set(pm.id, pm);
      return { status: 200, body: pmFor(pm) };
    }
    const attach = /^\/v1\/payment_methods\/([^/]+)\/(attach|detach)$/.exec(path);
    if (method === 'POST' && attach) {
      const pm = methods.get(attach[1]!);
      if (!pm) return notFound('No such PaymentMethod');
      if (attach[2] === 'detach') {
        pm.customer = null;
        return { status: 200, body: pmFor(pm) };
      }
      if (pm.token === 'tok_chargeDeclined') return cardError('card_declined', 'Your card was declined.');
      pm.customer = form.get('customer');
      return { status: 200, body: pmFor(pm) };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const pm = methods.get(form.get('payment_method') ?? '');
      const metadata: Record<string, string> = {};
      for (const [key, value] of form) {
        const m = /^metadata\[(.+)\]$/.exec(key);
        if (m) metadata[m[1]!] = value;
      }
      const intentId = id('pi');
      const offSession = form.get('off_session') === 'true';
      const needsAuth =
        pm?.token === 'tok_authenticationRequired' ||
        (pm?.token === 'tok_threeDSecureRequired' && !offSession);
      const intent: Record<string, unknown> = {
        id: intentId,
        object: 'payment_intent',
        amount: Number(form.get('amount')),
        currency: form.get('currency'),
        customer: form.get('customer'),
        payment_method: pm?.id ?? null,
        client_secret: `${intentId}_secret_fake`,
        status: needsAuth ? 'requires_action' : 'succeeded',
        metadata,
        last_payment_error: null,
      };
      intents.set(intentId, intent);
      if (pm?.token === 'tok_chargeCustomerFail') {
        intent.status = 'requires_payment_method';
        intent.last_payment_error = {
          type: 'card_error',
          code: 'card_declined',
          message: 'Your card was declined.',
        };
        return cardError('card_declined', 'Your card was declined.', intent);
      }
      if (needsAuth && offSession) {
        // Stripe: an off-session payment that needs authentication fails; the card holder must
        // come back and confirm a payment on session.
        const message = 'This payment requires authentication.';
        intent.status = 'requires_payment_method';
        intent.last_payment_error = { type: 'card_error', code: 'authentication_required', message };
        return cardError('authentication_required', message, intent);
      }
      return { status: 200, body: intent };
    }
    const metadataOf = () => {
      const metadata: Record<string, string> = {};
      for (const [key, value] of form) {
        const m = /^metadata\[(.+)\]$/.exec(key);
        if (m) metadata[m[1]!] = value;
      }
      return metadata;
    };
    if (method === 'POST' && path === '/v1/invoices') {
      const invoice: Record<string, unknown> = {
        id: id('in'),
        object: 'invoice',
        customer: form.get('customer'),
        currency: form.get('currency'),
        description: form.get('description'),
        status: 'draft',
        metadata: metadataOf(),
        lines: { object: 'list', data: [] },
        total: 0,
        payments: { object: 'list', data: [] },
      };
      invoices.set(invoice.id as string, invoice);
      return { status: 200, body: invoice };
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const data = [...invoices.values()].filter((inv) => inv.customer === form.get('customer')).reverse();
      return { status: 200, body: { object: 'list', data, has_more: false } };
    }
    if (method === 'POST' && path === '/v1/invoiceitems') {
      const invoice = invoices.get(form.get('invoice') ?? '');
      if (!invoice) return notFound('No such invoice');
      if (invoice.status !== 'draft')
        return {
          status: 400,
          body: { error: { type: 'invalid_request_error', code: 'invoice_not_editable' } },
        };
      const item = {
        id: id('ii'),
        object: 'invoiceitem',
        invoice: invoice.id,
        amount: Number(form.get('amount')),
        currency: form.get('currency'),
        description: form.get('description'),
        metadata: metadataOf(),
      };
      (invoice.lines as { data: unknown[] }).data.push(item);
      invoice.total = (invoice.total as number) + item.amount;
      return { status: 200, body: item };
    }
    const deleted = /^\/v1\/invoices\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && deleted) {
      const invoice = invoices.get(deleted[1]!);
      if (!invoice) return notFound('No such invoice');
      if (invoice.status !== 'draft')
        return { status: 400, body: { error: { type: 'invalid_request_error', code: 'invoice_not_draft' } } };
      invoices.delete(deleted[1]!);
      return { status: 200, body: { id: deleted[1], object: 'invoice', deleted: true } };
    }
    const invoiceAction = /^\/v1\/invoices\/([^/]+)\/(finalize|pay|void|mark_uncollectible)$/.exec(path);
    if (method === 'POST' && invoiceAction) {
      const invoice = invoices.get(invoiceAction[1]!);
      if (!invoice) return notFound('No such invoice');
      if (invoiceAction[2] === 'void' || invoiceAction[2] === 'mark_uncollectible') {
        if (invoice.status !== 'open')
          return {
            status: 400,
            body: { error: { type: 'invalid_request_error', code: 'invoice_not_open' } },
          };
        invoice.status = invoiceAction[2] === 'void' ? 'void' : 'uncollectible';
        return { status: 200, body: invoice };
      }
      const payments = invoice.payments as {
        data: { payment: { payment_intent: Record<string, unknown> } }[];
      };
      if (invoiceAction[2] === 'finalize') {
        if (invoice.status !== 'draft') return { status: 200, body: invoice };
        invoice.status = 'open';
        const intentId = id('pi');
        const intent: Record<string, unknown> = {
          id: intentId,
          object: 'payment_intent',
          amount: invoice.total,
          currency: invoice.currency,
          customer: invoice.customer,
          payment_method: null,
          client_secret: `${intentId}_secret_fake`,
          status: 'requires_payment_method',
          metadata: {},
          last_payment_error: null,
        };
        intents.set(intentId, intent);
        payments.data.push({ payment: { payment_intent: intent } });
        return { status: 200, body: invoice };
      }
      const intent = payments.data[0]?.payment.payment_intent;
      if (invoice.status !== 'open' || !intent)
        return { status: 400, body: { error: { type: 'invalid_request_error', code: 'invoice_not_open' } } };
      const pm = methods.get(form.get('payment_method') ?? '');
      intent.payment_method = pm?.id ?? null;
      if (pm?.token === 'tok_chargeCustomerFail') {
        intent.last_payment_error = {
          type: 'card_error',
          code: 'card_declined',
          message: 'Your card was declined.',
        };
        return cardError('card_declined', 'Your card was declined.', intent);
      }
      if (pm?.token === 'tok_authenticationRequired') {
        const message = 'This payment requires authentication.';
        intent.last_payment_error = { type: 'card_error', code: 'authentication_required', message };
        return cardError('authentication_required', message, intent);
      }
      intent.status = 'succeeded';
      intent.last_payment_error = null;
      invoice.status = 'paid';
      return { status: 200, body: invoice };
    }
    const update = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'POST' && update) {
      const intent = intents.get(update[1]!);
      if (!intent) return notFound('No such payment_intent');
      intent.metadata = { ...(intent.metadata as Record<string, string>), ...metadataOf() };
      return { status: 200, body: intent };
    }
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel) {
      const intent = intents.get(cancel[1]!);
      if (!intent) return notFound('No such payment_intent');
      // Stripe cancels a payment only while it waits for the customer or a payment method.
      if (
        !['requires_action', 'requires_payment_method', 'requires_confirmation'].includes(
          String(intent.status),
        )
      )
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}.`,
            },
          },
        };
      intent.status = 'canceled';
      return { status: 200, body: intent };
    }
    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && retrieve) {
      const intent = intents.get(retrieve[1]!);
      if (!intent) return notFound('No such payment_intent');
      return { status: 200, body: intent };
    }
    return (
      options.connect?.handle(method, path, form, intents) ??
      notFound(`Unrecognized request URL (${method}: ${path})`)
    );
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const method = req.method ?? 'GET';
      const key = req.headers['idempotency-key'] as string | undefined;
      const raw = method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString();
      const form = new URLSearchParams(raw);
      const request = `${method} ${url.pathname} ${raw}`;
      const first = key ? idempotent.get(key) : undefined;
      requests.push({ method, path: url.pathname, idempotencyKey: key, params: form, replayed: !!first });
      let answer: { status: number; body: unknown };
      if (first && first.request !== request) {
        answer = {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. (${key})`,
            },
          },
        };
      } else {
        answer = first?.answer ?? handle(method, url.pathname, form);
        if (key && !first) idempotent.set(key, { request, answer });
      }
      if (dropAnswer.delete(url.pathname)) {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'request-id': `req_${seq}`,
        ...(first ? { 'idempotent-replayed': 'true' } : {}),
      });
      res.end(JSON.stringify(answer.body));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    requests,
    intents,
    invoices,
    /** The next answer on `path` is lost: Stripe did the work, the caller sees the connection drop. */
    loseNextAnswer(path: string) {
      dropAnswer.add(path);
    },
    /** What Stripe.js confirmCardPayment does in the browser once the card holder authenticates. */
    authenticate(intentId: string) {
      const intent = intents.get(intentId)!;
      intent.status = 'succeeded';
      return intent;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
