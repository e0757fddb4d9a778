import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayStateOf } from '../src/gateway/state';
import { checkLimitAlerts } from '../src/modules/usage/quota-warnings';
import { periodOf } from '../src/modules/usage/service';
import { newOwner, send } from './billing-helpers';
import { lastMail } from './identity-helpers';
import { createTestApp, type TTestApp } from './helpers';
import { insertEndpoint, startMockUpstream, writeTestPlans, type TMockUpstream } from './gateway-fixtures';
import { chatOverHttp } from './marketplace-helpers';

/*
 * Issue 38, item 2 (console part): the key list answers each key's use this period against its
 * cap (calls the cap counts, calls refused for a limit, whether the cap is reached), and
 * GET /api/account/usage/limits the limits reached this period, for the console's "limit reached,
 * calls are refused" state. Before, the key list had no usage and the route did not exist.
 */

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
let plansDir: string;

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-limits-plans-'));
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
/** An owner with an endpoint of its own and a key (capped or not) that may call it. */
async function caller(plan: string, monthlyCalls: number | null) {
  const owner = await newOwner(t.app, plan);
  const routeName = `limits/route-${++seq}`;
  await insertEndpoint(t.db, t.config.secret, owner.accountId, {
    routeName,
    routeEndpoint: `${upstream.url}/ok`,
  });
  const created = await send(t.app, owner.headers, 'POST', '/api/key', {
    name: `Capped ${seq}`,
    scope: ['gateway.invoke'],
    monthly_calls: monthlyCalls,
  });
  expect(created.statusCode, created.body).toBe(201);
  const key = created.json().data as { id: string; full_key: string };
  return { ...owner, routeName, key };
}

async function statuses(key: string, routeName: string, calls: number) {
  const answers: number[] = [];
  for (let i = 0; i < calls; i++) answers.push((await chatOverHttp(base, key, routeName)).status);
  return answers;
}

async function get(headers: Record<string, string>, url: string) {
  const response = await t.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe('limits reached: key use and the limits state', () => {
  it('a key capped at 2 making 4 calls: 2 / 2 used, 2 refused, its cap reached', async () => {
    const owner = await caller('free', 2);
    const other = await send(t.app, owner.headers, 'POST', '/api/key', {
      name: 'Uncapped',
      scope: ['gateway.invoke'],
    });
    expect(other.statusCode).toBe(201);
    expect(await statuses(owner.key.full_key, owner.routeName, 4)).toEqual([200, 200, 429, 429]);

    const keys = (await get(owner.headers, '/api/key')) as {
      id: string;
      monthly_calls: number | null;
      usage: unknown;
    }[];
    const period = periodOf(Date.now());
    expect(keys.find((key) => key.id === owner.key.id)).toMatchObject({
      monthly_calls: 2,
      usage: { period, calls: 2, refused: 2, limit_reached: true },
    });
    expect(keys.find((key) => key.id === other.json().data.id)?.usage).toEqual({
      period,
      calls: 0,
      refused: 0,
      limit_reached: false,
      tokens: 0,
      spend: 0,
      budget_reached: false,
      currency: 'usd',
    });

    expect(await get(owner.headers, '/api/account/usage/limits')).toEqual({
      period,
      reached: [{ kind: 'key_cap', key_id: owner.key.id, key_name: `Capped ${seq}` }],
      refused: 2,
    });
  });

  it('the plan quota reached is a limit reached; a revoked key is not', async () => {
    const owner = await caller('tinyquota', 1);
    expect(await statuses(owner.key.full_key, owner.routeName, 3)).toEqual([200, 429, 429]);
    const revoked = await send(t.app, owner.headers, 'PATCH', `/api/key/${owner.key.id}`, { active: false });
    expect(revoked.statusCode).toBe(200);
    const second = await send(t.app, owner.headers, 'POST', '/api/key', {
      name: 'Second',
      scope: ['gateway.invoke'],
    });
    expect(await statuses(second.json().data.full_key, owner.routeName, 3)).toEqual([200, 402, 402]);
    const state = (await get(owner.headers, '/api/account/usage/limits')) as {
      reached: unknown[];
      refused: number;
    };
    expect(state.reached).toEqual([{ kind: 'quota', key_id: null, key_name: null }]);
    expect(state.refused).toBe(4);
  });

  it('an account with no limit reached has none', async () => {
    const owner = await caller('free', null);
    expect(await statuses(owner.key.full_key, owner.routeName, 2)).toEqual([200, 200]);
    expect(await get(owner.headers, '/api/account/usage/limits')).toMatchObject({ reached: [], refused: 0 });
  });

  it("a key's cap reached is notified once per period (limit alerts' key_calls), refusals not counted as used", async () => {
    const owner = await caller('free', 2);
    expect(await statuses(owner.key.full_key, owner.routeName, 1)).toEqual([200]);
    await gatewayStateOf(t.app).meter.flush();
    const ours = async () =>
      (await checkLimitAlerts(t.app)).filter((sent) => sent.accountId === owner.accountId);
    expect(await ours()).toEqual([
      { accountId: owner.accountId, limit: 'key_calls', level: 50, to: [owner.email] },
    ]);
    expect(await statuses(owner.key.full_key, owner.routeName, 3)).toEqual([200, 429, 429]);
    await gatewayStateOf(t.app).meter.flush();
    expect(await ours()).toEqual([
      { accountId: owner.accountId, limit: 'key_calls', level: 100, to: [owner.email] },
    ]);
    // The mail names the key (issue 42 item 3: a mail to the admins for each limit).
    const mail = await lastMail(t.app, owner.email, 'quota_warning');
    expect(mail?.subject).toContain(`API key Capped`);
    expect(mail?.subject).toContain('has used all of its monthly calls');
    expect(await statuses(owner.key.full_key, owner.routeName, 2)).toEqual([429, 429]);
    await gatewayStateOf(t.app).meter.flush();
    expect(await ours()).toEqual([]);
  });
});
