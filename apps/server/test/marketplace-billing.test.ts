import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, marketplaceCharges, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { advance, CARDS, cardToken, newOwner, pdfText, send } from './billing-helpers';
import type { TTestApp } from './helpers';
import { insertKey, type TMockUpstream } from './gateway-fixtures';
import { chatOverHttp, sharePricedRoute, startListeningApp, stopListeningApp } from './marketplace-helpers';

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;

beforeAll(async () => {
  ({ t, upstream, base } = await startListeningApp());
});

afterAll(() => stopListeningApp({ t, upstream }));

const call = (key: string, routeName: string) => chatOverHttp(base, key, routeName);

async function route(owner: { headers: Record<string, string> }, routeName: string, price: object) {
  await sharePricedRoute(t.app, owner, routeName, `${upstream.url}/ok`, price);
}

describe('marketplace charges at renewal', () => {
  it('bills each priced route on the renewal invoice (and PDF); providers earn exactly what callers pay', async () => {
    const providerA = await newOwner(t.app, 'free');
    const providerB = await newOwner(t.app, 'free');
    // Token prices that leave fractions of a cent per call: rounded once per line, never per call.
    await route(providerA, 'earn-a/chat', {
      per_call: 10_000,
      per_1m_input_tokens: 3_330_000,
      per_1m_output_tokens: 7_770_000,
    });
    await route(providerB, 'earn-b/chat', {
      per_call: 70_000,
      per_1m_input_tokens: 0,
      per_1m_output_tokens: 0,
    });

    const callers: { owner: Awaited<ReturnType<typeof newOwner>>; key: { raw: string } }[] = [];
    for (let i = 0; i < 2; i++) {
      const owner = await newOwner(t.app);
      const token = await cardToken(t.app, owner.headers, CARDS.ok);
      const plan = await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token });
      expect(plan.statusCode, plan.body).toBe(200);
      callers.push({ owner, key: await insertKey(t.db, t.config.secret, owner.accountId) });
    }
    for (const [n, { key }] of callers.entries()) {
      for (let i = 0; i < 3 + n; i++) expect((await call(key.raw, 'earn-a/chat')).status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await call(key.raw, 'earn-b/chat')).status).toBe(200);
    }
    await gatewayStateOf(t.app).meter.flush();

    await advance(t.app, 32);

    // Prices in micros (0.01/call, 3.33 and 7.77 per million tokens): 3 calls of 1e10 + 11 x 3.33e6 +
    // 7 x 7.77e6 picos = 3 x 10,091,020,000 = 30,273,060,000 picos -> 3 cents, rounded once.
    const [first] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.accountId, callers[0]!.owner.accountId))
      .orderBy(invoices.date)
      .then((rows) => rows.slice(-1));
    expect(first!.status).toBe('paid');
    const market = first!.lines.filter((line) => line.description.startsWith('Marketplace'));
    expect(market.map((line) => line.amount)).toEqual([3, 14]);
    expect(market[0]!.description).toContain('earn-a/chat, 3 calls, 33 input + 21 output tokens');
    expect(market[0]!.description).toContain('$0.01/call');
    expect(first!.total).toBe(2900 + 3 + 14);

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/account/invoice',
      headers: callers[0]!.owner.headers,
    });
    const wire = list.json().data.items.find((row: { number: string }) => row.number === first!.number);
    const pdf = await t.app.inject({ method: 'GET', url: wire.invoice_pdf });
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Marketplace: earn-a/chat');

    // Every priced call is billed once; nothing is left unbilled before the renewal's cutoff.
    const unbilled = await t.db
      .select()
      .from(usageEvents)
      .where(eq(usageEvents.callerAccountId, callers[0]!.owner.accountId));
    expect(unbilled.filter((row) => row.costPicos !== null && row.chargeId === null)).toEqual([]);
    await advance(t.app, 32);
    const charges = await t.db.select().from(marketplaceCharges);
    const ours = charges.filter((c) => callers.some(({ owner }) => owner.accountId === c.callerAccountId));
    expect(ours).toHaveLength(4);

    // Caller lines add up to the providers' gross, and gross = fee + net, to the minor unit.
    const callerLines = (
      await Promise.all(
        callers.map(({ owner }) =>
          t.db.select().from(invoices).where(eq(invoices.accountId, owner.accountId)),
        ),
      )
    )
      .flat()
      .flatMap((invoice) => invoice.lines.filter((line) => line.description.startsWith('Marketplace')))
      .reduce((sum, line) => sum + line.amount, 0);
    let gross = 0;
    for (const provider of [providerA, providerB]) {
      const earnings = await t.app.inject({
        method: 'GET',
        url: '/api/account/earnings',
        headers: provider.headers,
      });
      expect(earnings.statusCode, earnings.body).toBe(200);
      const data = earnings.json().data;
      expect(data.fee_percent).toBe(10);
      for (const row of data.rows) {
        expect(row.gross).toBe(row.fee + row.net);
        gross += row.gross;
      }
    }
    expect(callerLines).toBe(gross);
    const earningsB = (
      await t.app.inject({ method: 'GET', url: '/api/account/earnings', headers: providerB.headers })
    ).json().data.rows;
    expect(earningsB).toEqual([
      expect.objectContaining({
        route_name: 'earn-b/chat',
        calls: 4,
        paying_accounts: 2,
        gross: 28,
        // 10 % of each caller's line of 14, rounded once per line: 1 + 1.
        fee: 2,
        net: 26,
        price: { per_call: 70_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
      }),
    ]);

    // Only the owner reads earnings.
    const member = await t.app.inject({ method: 'GET', url: '/api/account/earnings' });
    expect(member.statusCode).toBe(401);
  });

  it('a caller on the free plan with a card gets an invoice of its marketplace lines alone', async () => {
    const provider = await newOwner(t.app, 'free');
    await route(provider, 'earn-free/chat', {
      per_call: 250_000,
      per_1m_input_tokens: 0,
      per_1m_output_tokens: 0,
    });
    const caller = await newOwner(t.app);
    expect(
      (await send(t.app, caller.headers, 'POST', '/api/account/plan', { plan: 'free' })).statusCode,
    ).toBe(200);
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    const key = await insertKey(t.db, t.config.secret, caller.accountId);
    for (let i = 0; i < 2; i++) expect((await call(key.raw, 'earn-free/chat')).status).toBe(200);
    await gatewayStateOf(t.app).meter.flush();
    await advance(t.app, 32);
    const rows = await t.db.select().from(invoices).where(eq(invoices.accountId, caller.accountId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'paid', total: 50 });
    expect(rows[0]!.lines.map((line) => line.amount)).toEqual([50]);
  });
});
