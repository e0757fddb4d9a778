import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { rowsOf } from '../src/modules/usage/insight';
import { periodOf, storedCalls } from '../src/modules/usage/service';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import { createTestApp, type TTestApp } from './helpers';
import {
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  startWellInsideAMinute,
  writeTestPlans,
  type TMockUpstream,
} from './gateway-fixtures';
import { chatOverHttp, sharePricedRoute } from './marketplace-helpers';

/*
 * Issue 38, item 2: the gateway's refusals of a known key's call for its limits (402 payment
 * required, spend limit, plan quota; 429 key cap, rate) are in the request log with their code,
 * charged nothing and not counted to the quota, and a refused flood writes no more rows than the
 * key's rate limit allows (a rate refusal: one row per key and minute). Before, none was logged.
 */

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
let plansDir: string;

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-refusal-plans-'));
  upstream = await startMockUpstream();
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  rmSync(plansDir, { recursive: true, force: true });
});

let seq = 0;
async function ownRoute(plan: string) {
  const account = await insertAccount(t.db, `Refusal ${++seq}`, plan);
  const key = await insertKey(t.db, t.config.secret, account.id);
  const routeName = `refusal/route-${seq}`;
  await insertEndpoint(t.db, t.config.secret, account.id, { routeName, routeEndpoint: `${upstream.url}/ok` });
  return { accountId: account.id, key, routeName };
}

async function statuses(key: string, routeName: string, calls: number) {
  const answers: number[] = [];
  for (let i = 0; i < calls; i++) answers.push((await chatOverHttp(base, key, routeName)).status);
  return answers;
}

/** The account's logged calls as (status, code) pairs, and whether any was charged or had an endpoint. */
async function logged(accountId: string) {
  await gatewayStateOf(t.app).meter.flush();
  const rows = await t.db
    .select()
    .from(usageEvents)
    .where(eq(usageEvents.callerAccountId, accountId))
    .orderBy(usageEvents.id);
  const refused = rows.filter((row) => row.status >= 400);
  for (const row of refused) {
    expect(row.costPicos).toBeNull();
    expect(row.endpointId).toBeNull();
    expect(row.providerAccountId).toBeNull();
  }
  // Sorted: a forwarded call's row and a refusal's reach the table by different paths (ids say nothing).
  return rows.map((row) => `${row.status} ${row.errorCode ?? 'ok'}`).sort();
}

describe('gateway: refusals in the request log', () => {
  it('a key past its cap: each 429 key_quota_exceeded is logged, and none counts to the quota', async () => {
    const { accountId, key, routeName } = await ownRoute('free');
    await t.db.update(apiKeys).set({ monthlyCalls: 1 }).where(eq(apiKeys.id, key.id));
    t.app.forgetApiKey(key.hash);
    expect(await statuses(key.raw, routeName, 4)).toEqual([200, 429, 429, 429]);
    expect(await logged(accountId)).toEqual([
      '200 ok',
      '429 key_quota_exceeded',
      '429 key_quota_exceeded',
      '429 key_quota_exceeded',
    ]);
    expect(await storedCalls(t.db, accountId, periodOf(Date.now()))).toBe(1);
    expect(await storedCalls(t.db, accountId, periodOf(Date.now()), key.id)).toBe(1);
    // They count in the account's error rate (the roll-up the dashboard and usage page read).
    const [daily] = await rowsOf<{ errors: number }>(
      t.db,
      sql`select coalesce(sum(calls), 0)::int as errors from usage_daily
        where caller_account_id = ${accountId} and status_class = 4`,
    );
    expect(daily?.errors).toBe(3);
  });

  it("the plan's quota: each 402 quota_exceeded is logged", async () => {
    const { accountId, key, routeName } = await ownRoute('tinyquota');
    expect(await statuses(key.raw, routeName, 4)).toEqual([200, 200, 402, 402]);
    expect(await logged(accountId)).toEqual(['200 ok', '200 ok', '402 quota_exceeded', '402 quota_exceeded']);
    expect(await storedCalls(t.db, accountId, periodOf(Date.now()))).toBe(2);
  });

  it('the rate limit: a flood of 429s writes one row per key and minute', async () => {
    await startWellInsideAMinute();
    const { accountId, key, routeName } = await ownRoute('ratelimited');
    expect(await statuses(key.raw, routeName, 6)).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await logged(accountId)).toEqual(['200 ok', '200 ok', '429 rate_limit_exceeded']);
  });

  it('payment required and the spend limit are logged, a flood only up to the rate limit', async () => {
    await startWellInsideAMinute();
    const provider = await newOwner(t.app, 'free');
    const routeName = `refusal${process.pid}/priced`;
    const price = { per_call: 5, per_1m_input_tokens: 0, per_1m_output_tokens: 0 };
    await sharePricedRoute(t.app, provider, routeName, `${upstream.url}/ok`, price);

    // Two calls a minute on this plan: five refusals, two rows.
    const noCard = await newOwner(t.app, 'ratelimited');
    const noCardKey = await insertKey(t.db, t.config.secret, noCard.accountId);
    expect(await statuses(noCardKey.raw, routeName, 5)).toEqual([402, 402, 402, 402, 402]);
    expect(await logged(noCard.accountId)).toEqual(['402 payment_required', '402 payment_required']);

    const limited = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, limited.headers, CARDS.ok);
    await send(t.app, limited.headers, 'PATCH', '/api/account/card', { token });
    await send(t.app, limited.headers, 'PATCH', '/api/account/spend-limit', { marketplace_spend_limit: 0 });
    const limitedKey = await insertKey(t.db, t.config.secret, limited.accountId);
    expect(await statuses(limitedKey.raw, routeName, 1)).toEqual([402]);
    expect(await logged(limited.accountId)).toEqual(['402 spend_limit_reached']);
    const rows = await t.db
      .select({ keyId: usageEvents.keyId })
      .from(usageEvents)
      .where(eq(usageEvents.callerAccountId, limited.accountId));
    expect(rows).toEqual([{ keyId: limitedKey.id }]);
  });
});
