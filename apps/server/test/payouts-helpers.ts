import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TPayouts } from '@air/shared/schemas/payout';
import type { TApp } from '../src/app';
import { earningsLedger, invoices } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { advanceClock, billingNow } from '../src/modules/billing/clock';
import { runDuePayouts } from '../src/modules/billing/payouts/run';
import { runDueRenewals } from '../src/modules/billing/renewals';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import { insertKey } from './gateway-fixtures';
import { chatOverHttp, sharePricedRoute } from './marketplace-helpers';

export type TOwner = Awaited<ReturnType<typeof newOwner>>;

/** A provider (free plan) sharing one route at `perCallMicros` a call, forwarding to `upstream`. */
export async function newProvider(app: TApp, routeName: string, upstream: string, perCallMicros: number) {
  const owner = await newOwner(app, 'free');
  await sharePricedRoute(app, owner, routeName, `${upstream}/ok`, {
    per_call: perCallMicros,
    per_1m_input_tokens: 0,
    per_1m_output_tokens: 0,
  });
  return owner;
}

/** A caller on the paid plan with a card that pays, and a gateway key. */
export async function newCaller(app: TApp, card: string = CARDS.ok) {
  const owner = await newOwner(app);
  const token = await cardToken(app, owner.headers, card);
  const plan = await send(app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token });
  expect(plan.statusCode, plan.body).toBe(200);
  return { owner, key: await insertKey(app.db, app.config.secret, owner.accountId) };
}

/** `count` successful calls of `routeName` with the key, metered. */
export async function calls(app: TApp, base: string, key: string, routeName: string, count: number) {
  for (let i = 0; i < count; i++) expect((await chatOverHttp(base, key, routeName)).status).toBe(200);
  await gatewayStateOf(app).meter.flush();
}

/** Past every caller's renewal: the calls so far are invoiced and charged. */
export async function renew(app: TApp) {
  await advanceClock(app.db, 32 * 86_400_000);
  await runDueRenewals(app.billing);
}

/** To the first hour of next month (billing time), renewing what fell due, then the payout run. */
export async function closeMonth(app: TApp) {
  const now = await billingNow(app.db);
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1);
  await advanceClock(app.db, next - now.getTime());
  await runDueRenewals(app.billing);
  return runDuePayouts(app.billing);
}

export async function payoutsOf(app: TApp, owner: TOwner) {
  const res = await app.inject({ method: 'GET', url: '/api/account/payouts', headers: owner.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as TPayouts;
}

/** The caller's latest invoice. */
export async function lastInvoice(app: TApp, accountId: string) {
  const [row] = await app.db
    .select()
    .from(invoices)
    .where(eq(invoices.accountId, accountId))
    .orderBy(desc(invoices.date))
    .limit(1);
  return row!;
}

/** The ledger's sums over the given providers (minor units). */
export async function ledgerOf(app: TApp, providers: string[]) {
  const rows = (await app.db.select().from(earningsLedger)).filter((r) =>
    providers.includes(r.providerAccountId),
  );
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + pick(r), 0);
  return {
    rows,
    gross: sum((r) => r.gross),
    fee: sum((r) => r.fee),
    net: sum((r) => r.net),
    reversedGross: sum((r) => (r.kind === 'earning' ? 0 : r.gross)),
  };
}

export const IBAN = { method: 'iban', holder_name: 'Ada Lovelace', iban: 'DE89 3704 0044 0532 0130 00' };
