import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, payoutAccounts, payouts, webhookDeliveries } from '../src/db/schema';
import { refundInvoice } from '../src/modules/billing/payouts/refunds';
import { pdfText } from './billing-helpers';
import type { TTestApp } from './helpers';
import type { TMockUpstream } from './gateway-fixtures';
import { startListeningApp, stopListeningApp } from './marketplace-helpers';
import {
  IBAN,
  calls,
  closeMonth,
  lastInvoice,
  ledgerOf,
  newCaller,
  newProvider,
  payoutsOf,
  renew,
  type TOwner,
} from './payouts-helpers';

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;

beforeAll(async () => {
  ({ t, upstream, base } = await startListeningApp());
});

afterAll(() => stopListeningApp({ t, upstream }));

const put = (owner: TOwner, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/account/payout-account', headers: owner.headers, payload });

describe('payouts in local mode', () => {
  it('pays each month’s net once, carries balances under the minimum, and refunds reverse the matching earnings', async () => {
    // P earns 0.50 a call, Q 0.30 a call; the platform keeps 10 % of each invoice line.
    const p = await newProvider(t.app, 'pay-p/chat', upstream.url, 500_000);
    const q = await newProvider(t.app, 'pay-q/chat', upstream.url, 300_000);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhook',
      headers: p.headers,
      payload: { url: `${upstream.url}/hook`, events: ['payout.paid'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const c1 = await newCaller(t.app);
    const c2 = await newCaller(t.app);

    // Month 1: c1 30 calls of P (15.00) and 20 of Q (6.00); c2 one call of P (0.50).
    await calls(t.app, base, c1.key.raw, 'pay-p/chat', 30);
    await calls(t.app, base, c1.key.raw, 'pay-q/chat', 20);
    await calls(t.app, base, c2.key.raw, 'pay-p/chat', 1);
    const before = await payoutsOf(t.app, p);
    // Accrued, not invoiced yet: 15.50 gross less its fee (1.55).
    expect(before).toMatchObject({ accrued: 1395, balance: 0, pending: 0, paid: 0, minimum: 1000 });
    await renew(t.app);
    const c2Invoice = await lastInvoice(t.app, c2.owner.accountId);
    expect(c2Invoice.status).toBe('paid');
    expect((await payoutsOf(t.app, p)).balance).toBe(1350 + 45);

    // Between the periods c2's invoice is refunded in full: P's 0.45 from it is reversed.
    const refunded = await refundInvoice(t.app.billing, {
      number: c2Invoice.number,
      amount: null,
      kind: 'refund',
      reason: 'test',
    });
    expect(refunded).toMatchObject({ refunded: c2Invoice.total, applied: true });
    expect((await payoutsOf(t.app, p)).balance).toBe(1350);

    // The month closes: P's 13.50 becomes a payout, waiting for a bank account; Q's 5.40 carries.
    await closeMonth(t.app);
    const waiting = await payoutsOf(t.app, p);
    expect(waiting).toMatchObject({ balance: 0, pending: 1350, paid: 0 });
    expect(waiting.payouts).toEqual([
      expect.objectContaining({ amount: 1350, status: 'pending', waiting: 'no_payout_account' }),
    ]);
    expect(await payoutsOf(t.app, q)).toMatchObject({ balance: 540, pending: 0, payouts: [] });

    expect((await put(p, IBAN)).statusCode).toBe(200);
    await closeMonth(t.app);
    const paid = await payoutsOf(t.app, p);
    expect(paid).toMatchObject({ balance: 0, pending: 0, paid: 1350 });
    const [payout] = paid.payouts;
    expect(payout).toMatchObject({ status: 'paid', destination: 'IBAN DE •••• 3000', waiting: null });
    expect(payout!.lines).toEqual([
      expect.objectContaining({
        kind: 'earning',
        route_name: 'pay-p/chat',
        calls: 31,
        gross: 1550,
        fee: 155,
        net: 1395,
      }),
      expect.objectContaining({ kind: 'refund', route_name: 'pay-p/chat', gross: -50, fee: -5, net: -45 }),
    ]);
    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.accountId, p.accountId));
    expect(deliveries.filter((d) => d.event === 'payout.paid')).toHaveLength(1);

    // The statement: CSV and PDF through their signed links, not another account's.
    const csv = await t.app.inject({ method: 'GET', url: payout!.statement_csv });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')).toEqual(
      expect.arrayContaining([
        expect.stringContaining('earning,pay-p/chat'),
        expect.stringContaining('total,,,,,,13.50,USD'),
      ]),
    );
    const pdf = await t.app.inject({ method: 'GET', url: payout!.statement_pdf });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdfText(pdf.rawPayload)).toContain('Payout statement');
    const stranger = await t.app.inject({
      method: 'GET',
      url: `/api/account/payouts/${payout!.id}/csv`,
      headers: q.headers,
    });
    expect(stranger.statusCode).toBe(404);

    // Month 2: Q reaches the minimum with its carried 5.40 (lines of both months); a partial
    // refund (10.00 of 50.00) of c1's first invoice reverses a fifth of each of its marketplace
    // lines, also of P's, paid out already: P's balance goes below zero and waits.
    await calls(t.app, base, c1.key.raw, 'pay-q/chat', 25);
    await calls(t.app, base, c1.key.raw, 'pay-p/chat', 2);
    await renew(t.app);
    await put(q, {
      method: 'us_bank',
      holder_name: 'Q Corp',
      routing_number: '011000015',
      account_number: '000123456789',
    });
    const [c1First] = (await t.db.select().from(invoices)).filter(
      (row) =>
        row.accountId === c1.owner.accountId && row.lines.some((l) => l.description.includes('30 calls')),
    );
    await refundInvoice(t.app.billing, {
      number: c1First!.number,
      amount: 1000,
      kind: 'refund',
      reason: 'partial',
    });
    await closeMonth(t.app);
    const qPaid = await payoutsOf(t.app, q);
    // 540 + 675 (7.50 less 0.75) - 108 (a fifth of its 6.00 line, less a fifth of its fee).
    expect(qPaid).toMatchObject({ balance: 0, pending: 0, paid: 1107 });
    expect(qPaid.payouts[0]).toMatchObject({ status: 'paid', amount: 1107, destination: 'US •••• 6789' });
    expect(qPaid.payouts[0]!.lines.map((line) => [line.kind, line.calls, line.net])).toEqual([
      ['earning', 20, 540],
      ['earning', 25, 675],
      ['refund', 0, -108],
    ]);
    // P: 0.90 earned this month, 2.70 reversed: -1.80 carries, no payout.
    expect(await payoutsOf(t.app, p)).toMatchObject({ balance: -180, pending: 0, paid: 1350 });

    // The ledger adds up: charges = earnings + fee, earnings = paid + pending + balance.
    const providers = [p.accountId, q.accountId];
    const ledger = await ledgerOf(t.app, providers);
    const callerLines = (await t.db.select().from(invoices))
      .filter(
        (row) => [c1.owner.accountId, c2.owner.accountId].includes(row.accountId!) && row.status === 'paid',
      )
      .flatMap((row) => row.lines.filter((line) => line.description.startsWith('Marketplace')))
      .reduce((sum, line) => sum + line.amount, 0);
    let earnings = 0;
    for (const owner of [p, q]) {
      const summary = await payoutsOf(t.app, owner);
      earnings += summary.paid + summary.pending + summary.balance;
    }
    expect(callerLines + ledger.reversedGross).toBe(earnings + ledger.fee);
    expect(earnings).toBe(ledger.net);
  });

  it('checks bank accounts for form and stores only the last four digits', async () => {
    const owner = await newProvider(t.app, 'pay-form/chat', upstream.url, 1000);
    const bad = [
      { ...IBAN, iban: 'DE89 3704 0044 0532 0130 01' }, // check digits wrong
      { ...IBAN, iban: 'DE89 3704 0044 0532 0130' }, // German IBANs have 22 characters
      { ...IBAN, iban: 'XX89370400440532013000' }, // no such country
      { ...IBAN, iban: 'DE89\u0000370400440532013000' },
      { ...IBAN, iban: '\ud800' },
      { ...IBAN, holder_name: '' },
      { ...IBAN, holder_name: 'A\u0000B' },
      { method: 'us_bank', holder_name: 'A', routing_number: '011000016', account_number: '12345678' },
      { method: 'us_bank', holder_name: 'A', routing_number: '011000015', account_number: '123' },
      { method: 'us_bank', holder_name: 'A', routing_number: '991000019', account_number: '12345678' },
      { method: 'stripe' }, // not in local mode
      { method: 'paypal' },
      { ...IBAN, extra: 1 },
    ];
    for (const payload of bad) {
      const res = await put(owner, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.accountId, owner.accountId)),
    ).toEqual([]);
    const es = await t.app.inject({
      method: 'PUT',
      url: '/api/account/payout-account',
      headers: { ...owner.headers, 'accept-language': 'es' },
      payload: bad[0],
    });
    expect(es.json().message ?? es.body).toMatch(/IBAN/);
    const saved = await put(owner, { ...IBAN, iban: 'gb82 west 1234 5698 7654 32' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ method: 'iban', country: 'GB', last4: '5432', ready: true });
    const [row] = await t.db
      .select()
      .from(payoutAccounts)
      .where(eq(payoutAccounts.accountId, owner.accountId));
    expect(JSON.stringify(row)).not.toContain('98765432');
    const get = await t.app.inject({
      method: 'GET',
      url: '/api/account/payout-account',
      headers: owner.headers,
    });
    expect(get.json().data).toMatchObject({ last4: '5432', holder_name: 'Ada Lovelace' });
  });

  it("keeps another account's payouts and statements out of reach", async () => {
    const [mine] = await t.db.select().from(payouts).limit(1);
    const other = await newProvider(t.app, 'pay-other/chat', upstream.url, 1000);
    for (const format of ['pdf', 'csv']) {
      const url = `/api/account/payouts/${mine!.id}/${format}`;
      expect((await t.app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `${url}?token=9999999999999.x` })).statusCode).toBe(
        401,
      );
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    const forged = `/api/account/payouts/${mine!.id}/pdf?token=253402300799000.${'A'.repeat(43)}`;
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(401);
    expect((await payoutsOf(t.app, other)).payouts).toEqual([]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/account/payouts/not-a-uuid/pdf',
      headers: other.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});
