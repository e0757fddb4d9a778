import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createTestApp, type TTestApp } from './helpers';
import { seedUser } from './identity-helpers';
import { CARDS, cardToken, newOwner, pdfText, send } from './billing-helpers';

/** The invoice PDF names the seller from configuration, the bill-to block and the seats charged. */
let t: TTestApp;
const SELLER = 'AIR Platform Ltd|1 Example Street|London N1 1AA|billing@air.example';
beforeAll(async () => {
  t = await createTestApp({
    invoiceSeller: loadConfig({ NODE_ENV: 'test', SECRET: 'x'.repeat(32), INVOICE_SELLER: SELLER })
      .invoiceSeller,
  });
});
afterAll(async () => {
  await t?.close();
});

describe('invoice PDF', () => {
  it('names the configured seller, the account and its owner, and the seats charged', async () => {
    const owner = await newOwner(t.app, 'free');
    for (const n of [1, 2]) {
      await seedUser(t.app, {
        email: `pdf-seat-${process.pid}-${n}-${Date.now()}@example.com`,
        accountId: owner.accountId,
        role: 'user',
      });
    }
    const token = await cardToken(t.app, owner.headers, CARDS.ok);
    const change = await send(t.app, owner.headers, 'PATCH', '/api/account/plan', { plan: 'team', token });
    expect(change.statusCode, change.body).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/api/account/invoice', headers: owner.headers });
    const [invoice] = list.json().data.items;
    expect(invoice.total).toBe(5700);
    const pdf = await t.app.inject({ method: 'GET', url: invoice.invoice_pdf });
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    for (const line of SELLER.split('|')) expect(text).toContain(line);
    expect(text).not.toContain('no-reply@air.local');
    expect(text).toContain('Bill to');
    // The owner, as the billing contact (the block wraps long addresses onto a line of their own).
    expect(text).toContain(owner.email.split('@')[0]);
    expect(text).toContain(`<${owner.email}>`);
    expect(text).toContain('Seats charged: 3');
    expect(text).toContain('Team plan (3 seats)');
    expect(text).toContain('$57.00');
  });

  it('by default the seller is AIR at APP_URL, with SUPPORT_EMAIL when set and never the no-reply sender', () => {
    const base = { NODE_ENV: 'test', SECRET: 'x'.repeat(32), APP_URL: 'https://air.example.com' };
    expect(loadConfig(base).invoiceSeller).toEqual(['AIR', 'https://air.example.com']);
    expect(loadConfig({ ...base, SUPPORT_EMAIL: 'help@air.example.com' }).invoiceSeller).toEqual([
      'AIR',
      'https://air.example.com',
      'help@air.example.com',
    ]);
    expect(() => loadConfig({ ...base, INVOICE_SELLER: 'AIR\nStreet' })).toThrow(/INVOICE_SELLER/);
  });
});
