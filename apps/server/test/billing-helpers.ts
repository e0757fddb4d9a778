import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TApp } from '../src/app';
import { advanceClock } from '../src/modules/billing/clock';
import { runDueRenewals } from '../src/modules/billing/renewals';
import { billingCustomers, localPaymentIntents } from '../src/db/schema';
import { bearer, seedUser, signIn } from './identity-helpers';

export const CARDS = {
  ok: '4242 4242 4242 4242',
  threeDs: '4000 0025 0000 3155',
  declined: '4000 0000 0000 0002',
  insufficient: '4000 0000 0000 9995',
  laterFails: '4000 0000 0000 0341',
} as const;

let seq = 0;

/** A verified owner of a new account with no plan yet (the sign-up plan step), signed in. */
export async function newOwner(app: TApp, plan: string | null = null) {
  const email = `owner-${process.pid}-${Date.now()}-${seq++}@example.com`;
  const { accountId, userId } = await seedUser(app, { email, plan });
  const session = await signIn(app, email);
  return { email, accountId, userId, headers: bearer(session.token) };
}

export async function cardToken(app: TApp, headers: Record<string, string>, number: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/billing/local/token',
    headers,
    payload: { number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

export function send(
  app: TApp,
  headers: Record<string, string>,
  method: 'POST' | 'PATCH',
  url: string,
  payload: Record<string, unknown>,
) {
  return app.inject({ method, url, headers, payload });
}

/** The local processor's payments of an account (each one a charge attempt). */
export async function paymentsOf(app: TApp, accountId: string) {
  const [customer] = await app.db
    .select()
    .from(billingCustomers)
    .where(eq(billingCustomers.accountId, accountId));
  if (!customer) return [];
  return app.db
    .select()
    .from(localPaymentIntents)
    .where(eq(localPaymentIntents.customerId, customer.customerRef));
}

export async function advance(app: TApp, days: number) {
  await advanceClock(app.db, days * 86_400_000);
  return runDueRenewals(app.billing);
}

/** The text of an uncompressed pdfkit PDF: its hex strings, decoded. */
export function pdfText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  return [...body.matchAll(/\[(.*?)\] TJ/g)]
    .map((m) =>
      [...m[1]!.matchAll(/<([0-9a-f]+)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''),
    )
    .join('\n');
}
