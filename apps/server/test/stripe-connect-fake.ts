import { requestProblems, responseProblems, skeleton } from './stripe-openapi';

/*
 * The Connect, refund and dispute part of the loopback Stripe fake (billing-stripe-fake.ts takes it
 * as its extension): Express accounts, account links, transfers, refunds and disputes, the calls
 * AIR's payouts make. Each request is checked against Stripe's published OpenAPI document and
 * refused with Stripe's 400 when it does not fit; each object answered is built from the
 * document's schema and checked against the operation's response schema (a mismatch is recorded
 * in `problems`, which the tests expect empty). The behaviour (state, onboarding, balances) is
 * the fake's own, after Stripe's reference: a transfer needs a connected account whose transfers
 * capability is active; a refund needs a succeeded payment with that much left.
 */

type TAnswer = { status: number; body: unknown };
type TObject = Record<string, unknown>;

export function createConnectFake() {
  const accounts = new Map<string, TObject>();
  const transfers = new Map<string, TObject>();
  const refunds = new Map<string, TObject>();
  const disputes = new Map<string, TObject>();
  const problems: string[] = [];
  let seq = 0;
  const id = (prefix: string) => `${prefix}_cfake${++seq}`;
  const created = () => Math.floor(Date.now() / 1000);
  const invalid = (message: string, param?: string): TAnswer => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } },
  });
  const notFound = (what: string): TAnswer => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
  });
  const list = (data: TObject[], url: string): TAnswer => ({
    status: 200,
    body: { object: 'list', data, has_more: false, url },
  });
  const metadataOf = (form: URLSearchParams) => {
    const metadata: Record<string, string> = {};
    for (const [key, value] of form) {
      const m = /^metadata\[(.+)\]$/.exec(key);
      if (m) metadata[m[1]!] = value;
    }
    return metadata;
  };

  function route(
    method: string,
    path: string,
    form: URLSearchParams,
    intents: Map<string, TObject>,
  ): TAnswer | null {
    if (method === 'POST' && path === '/v1/accounts') {
      const account = skeleton('account', {
        id: id('acct'),
        type: form.get('type'),
        email: form.get('email'),
        metadata: metadataOf(form),
        created: created(),
        details_submitted: false,
        charges_enabled: false,
        payouts_enabled: false,
        capabilities: { transfers: 'inactive' },
      });
      accounts.set(account.id as string, account);
      return { status: 200, body: account };
    }
    const account = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === 'GET' && account) {
      const found = accounts.get(account[1]!);
      return found ? { status: 200, body: found } : notFound(`account: '${account[1]}'`);
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const target = accounts.get(form.get('account') ?? '');
      if (!target) return invalid(`No such account: '${form.get('account')}'`, 'account');
      const link = skeleton('account_link', {
        created: created(),
        expires_at: created() + 300,
        url: `https://connect.stripe.com/setup/e/${target.id as string}/${id('link')}`,
      });
      return { status: 200, body: link };
    }
    if (method === 'GET' && path === '/v1/transfers') {
      const group = form.get('transfer_group');
      const data = [...transfers.values()].filter((t) => !group || t.transfer_group === group);
      return list(data.slice(0, Number(form.get('limit') ?? 10)), '/v1/transfers');
    }
    if (method === 'POST' && path === '/v1/transfers') {
      const destination = accounts.get(form.get('destination') ?? '');
      if (!destination) return invalid(`No such destination: '${form.get('destination')}'`, 'destination');
      if ((destination.capabilities as TObject).transfers !== 'active')
        return invalid(
          'Your destination account needs to have the transfers capability enabled.',
          'destination',
        );
      const amount = Number(form.get('amount'));
      if (!(amount > 0)) return invalid('Amount must be at least 1', 'amount');
      const transferId = id('tr');
      const transfer = skeleton('transfer', {
        id: transferId,
        amount,
        amount_reversed: 0,
        created: created(),
        currency: form.get('currency'),
        description: form.get('description'),
        destination: destination.id,
        metadata: metadataOf(form),
        reversals: {
          object: 'list',
          data: [],
          has_more: false,
          url: `/v1/transfers/${transferId}/reversals`,
        },
        reversed: false,
        transfer_group: form.get('transfer_group'),
      });
      transfers.set(transferId, transfer);
      return { status: 200, body: transfer };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(form.get('payment_intent') ?? '');
      if (!intent || intent.status !== 'succeeded')
        return invalid('This PaymentIntent does not have a successful charge to refund.', 'payment_intent');
      const taken = [...refunds.values()]
        .filter((r) => r.payment_intent === intent.id && r.status === 'succeeded')
        .reduce((sum, r) => sum + (r.amount as number), 0);
      const amount = form.has('amount') ? Number(form.get('amount')) : (intent.amount as number) - taken;
      if (!(amount > 0) || taken + amount > (intent.amount as number))
        return invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge`, 'amount');
      const refund = skeleton('refund', {
        id: id('re'),
        amount,
        created: created(),
        currency: intent.currency,
        payment_intent: intent.id,
        reason: form.get('reason'),
        status: 'succeeded',
        metadata: metadataOf(form),
      });
      refunds.set(refund.id as string, refund);
      return { status: 200, body: refund };
    }
    if (method === 'GET' && path === '/v1/refunds') {
      const data = [...refunds.values()].filter((r) => r.payment_intent === form.get('payment_intent'));
      return list(data, '/v1/refunds');
    }
    const dispute = /^\/v1\/disputes\/([^/]+)$/.exec(path);
    if (method === 'GET' && dispute) {
      const found = disputes.get(dispute[1]!);
      return found ? { status: 200, body: found } : notFound(`dispute: '${dispute[1]}'`);
    }
    return null;
  }

  return {
    accounts,
    transfers,
    refunds,
    disputes,
    /** What did not fit Stripe's document: the SDK's requests refused, the fake's own answers. */
    problems,
    /** The extension's answer to a request it serves (null: the base fake's). */
    handle(
      method: string,
      path: string,
      form: URLSearchParams,
      intents: Map<string, TObject>,
    ): TAnswer | null {
      const served = ['/v1/accounts', '/v1/account_links', '/v1/transfers', '/v1/refunds', '/v1/disputes'];
      if (!served.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return null;
      const wrong = requestProblems(method, path, form);
      if (wrong.length > 0) {
        problems.push(...wrong.map((p) => `${method} ${path}: ${p}`));
        return invalid(`Invalid request: ${wrong.join('; ')}`);
      }
      const answer = route(method, path, form, intents) ?? notFound(`route ${method} ${path}`);
      problems.push(
        ...responseProblems(method, path, answer.status, answer.body).map((p) => `${method} ${path}: ${p}`),
      );
      return answer;
    },
    /** What the provider does on Stripe's hosted onboarding page: details in, transfers active. */
    completeOnboarding(accountId: string) {
      const found = accounts.get(accountId)!;
      Object.assign(found, { details_submitted: true, payouts_enabled: true, charges_enabled: true });
      found.capabilities = { transfers: 'active' };
    },
    /** The card holder's bank opens a dispute of a payment (what Stripe then reports by webhook). */
    openDispute(intent: TObject, amount: number): string {
      const disputeId = id('dp');
      disputes.set(
        disputeId,
        skeleton('dispute', {
          id: disputeId,
          amount,
          charge: id('ch'),
          created: created(),
          currency: intent.currency,
          payment_intent: intent.id,
          reason: 'fraudulent',
          status: 'needs_response',
        }),
      );
      return disputeId;
    },
    closeDispute(disputeId: string, status: 'won' | 'lost') {
      disputes.get(disputeId)!.status = status;
    },
  };
}

export type TConnectFake = ReturnType<typeof createConnectFake>;
