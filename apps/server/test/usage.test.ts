import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageDaily, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { closeAccount } from '../src/modules/account/close';
import { createTestApp, type TTestApp } from './helpers';
import { createActor } from './support/actors';
import { insertEndpoint, insertKey, startMockUpstream, type TMockUpstream } from './gateway-fixtures';
import { injectChat } from './usage-fixtures';

let t: TTestApp;
let upstream: TMockUpstream;

beforeAll(async () => {
  upstream = await startMockUpstream();
  t = await createTestApp({ upstreamAllowPrivate: true });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

const callGateway = (rawKey: string, model: string) => injectChat(t.app, rawKey, model);

function usage(bearer?: string) {
  return t.app.inject({
    method: 'GET',
    url: '/api/account/usage',
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
  });
}

describe('GET /api/account/usage', () => {
  it("reports this period's calls against the plan quota, and calls served to others, per account", async () => {
    const provider = await createActor(t.app);
    const caller = await createActor(t.app, { role: 'user' });
    const providerKey = await insertKey(t.db, t.config.secret, provider.accountId);
    const callerKey = await insertKey(t.db, t.config.secret, caller.accountId);
    await insertEndpoint(t.db, t.config.secret, provider.accountId, {
      routeName: 'mock/usage-shared',
      routeEndpoint: `${upstream.url}/ok`,
      isShared: true,
      isPrivate: false,
    });
    expect((await callGateway(providerKey.raw, 'mock/usage-shared')).statusCode).toBe(200);
    expect((await callGateway(callerKey.raw, 'mock/usage-shared')).statusCode).toBe(200);
    expect((await callGateway(callerKey.raw, 'mock/usage-shared')).statusCode).toBe(200);

    const period = new Date().toISOString().slice(0, 7);
    const free = t.app.plans.find((plan) => plan.id === 'free')!;
    const callerUsage = await usage(caller.token);
    expect(callerUsage.statusCode).toBe(200);
    expect(callerUsage.json().data).toEqual([
      expect.objectContaining({ label: 'calls', total: 2, quota: free.quota_calls_month, period }),
      expect.objectContaining({ label: 'served', total: 0, quota: null, period }),
      expect.objectContaining({ label: 'spend', total: 0, quota: null, period, currency: free.currency }),
    ]);
    const providerUsage = (await usage(provider.token)).json().data;
    expect(providerUsage[0]).toMatchObject({ label: 'calls', total: 1 });
    expect(providerUsage[1]).toMatchObject({ label: 'served', total: 3 });
    expect(new Date(providerUsage[0].period_start).getUTCDate()).toBe(1);
  });

  it('needs credentials: 401 without, 403 for a key without usage.read, 200 for one with it', async () => {
    const actor = await createActor(t.app);
    expect((await usage()).statusCode).toBe(401);
    const invokeOnly = await insertKey(t.db, t.config.secret, actor.accountId, ['gateway.invoke']);
    expect((await usage(invokeOnly.raw)).statusCode).toBe(403);
    const reader = await insertKey(t.db, t.config.secret, actor.accountId, ['usage.read']);
    const res = await usage(reader.raw);
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toMatchObject({ label: 'calls', total: 0 });
  });
});

describe('metering after an account closes', () => {
  it("a closed account's calls still buffered are dropped, and metering goes on for everyone else", async () => {
    const provider = await createActor(t.app);
    const leaving = await createActor(t.app, { role: 'user' });
    const staying = await createActor(t.app, { role: 'user' });
    const leavingKey = await insertKey(t.db, t.config.secret, leaving.accountId);
    const stayingKey = await insertKey(t.db, t.config.secret, staying.accountId);
    await insertEndpoint(t.db, t.config.secret, provider.accountId, {
      routeName: 'mock/usage-closing',
      routeEndpoint: `${upstream.url}/ok`,
      isShared: true,
      isPrivate: false,
    });
    const meter = gatewayStateOf(t.app).meter;
    // One call of the leaving account is written, the next one is in the meter's buffer when the
    // account is closed: closing deletes the first, the insert leaves out the second.
    expect((await callGateway(leavingKey.raw, 'mock/usage-closing')).statusCode).toBe(200);
    await meter.flush();
    expect(
      await t.db.select().from(usageEvents).where(eq(usageEvents.callerAccountId, leaving.accountId)),
    ).toHaveLength(1);
    expect((await callGateway(leavingKey.raw, 'mock/usage-closing')).statusCode).toBe(200);
    await closeAccount(t.app, leaving.accountId);
    expect((await callGateway(stayingKey.raw, 'mock/usage-closing')).statusCode).toBe(200);
    await meter.flush();
    expect((await callGateway(stayingKey.raw, 'mock/usage-closing')).statusCode).toBe(200);
    await meter.flush();

    const rows = await t.db
      .select({ caller: usageEvents.callerAccountId })
      .from(usageEvents)
      .where(inArray(usageEvents.callerAccountId, [leaving.accountId, staying.accountId]));
    expect(rows.filter((row) => row.caller === staying.accountId)).toHaveLength(2);
    expect(rows.filter((row) => row.caller === leaving.accountId)).toHaveLength(0);
    const daily = await t.db
      .select({ calls: usageDaily.calls })
      .from(usageDaily)
      .where(eq(usageDaily.callerAccountId, staying.accountId));
    expect(daily.reduce((sum, row) => sum + row.calls, 0)).toBe(2);
  }, 20_000);
});
