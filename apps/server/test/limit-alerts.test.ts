import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, mailOutbox, usageEvents } from '../src/db/schema';
import { createWebhook } from '../src/modules/webhooks/service';
import { checkLimitAlerts } from '../src/modules/usage/quota-warnings';
import { createTestApp, type TTestApp } from './helpers';
import { createActor } from './support/actors';
import { freePlansFile } from './usage-fixtures';

/*
 * Limit alerts (issue 42 item 3, contract 6e): at 50, 80 and 100 % of the plan quota, exactly one
 * mail per admin and one webhook per level and period, even when two checks (two instances) run
 * at once, with the webhook's data naming the limit.
 */

let t: TTestApp;
let receiver: Server;
let receiverUrl: string;
const events: { type: string; data: Record<string, unknown> }[] = [];

beforeAll(async () => {
  t = await createTestApp({
    plansFile: freePlansFile([
      ['free', 'Free', 1000],
      ['ten', 'Ten', 10],
    ]),
  });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      events.push(JSON.parse(body) as (typeof events)[number]);
      response.end('ok');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('limit alerts', () => {
  it('sends one mail per admin and one webhook at each of 50, 80 and 100 %, once, with two checks racing', async () => {
    const owner = await createActor(t.app);
    const admin = await createActor(t.app, { accountId: owner.accountId, role: 'admin' });
    const developer = await createActor(t.app, { accountId: owner.accountId, role: 'developer' });
    await t.db.update(accounts).set({ planId: 'ten' }).where(eq(accounts.id, owner.accountId));
    await createWebhook({ db: t.db, secret: t.config.secret, allowPrivate: true }, owner.accountId, {
      url: receiverUrl,
      events: ['limit.threshold', 'limit.reached'],
    });
    // Calls of the quota reach an endpoint; a refused call is logged without one and counts for nothing.
    const endpointId = randomUUID();
    const logged = (n: number, row: { endpointId?: string; status: number; errorCode?: string }) =>
      t.db
        .insert(usageEvents)
        .values(
          Array.from({ length: n }, () => ({ callerAccountId: owner.accountId, latencyMs: 3, ...row })),
        );
    const calls = (n: number) => logged(n, { endpointId, status: 200 });
    const refused = (n: number) => logged(n, { status: 429, errorCode: 'rate_limit_exceeded' });
    const race = async () => {
      const [a, b] = await Promise.all([checkLimitAlerts(t.app), checkLimitAlerts(t.app)]);
      return [...a, ...b].filter((sent) => sent.accountId === owner.accountId).map((sent) => sent.level);
    };
    const mails = async (to: string) =>
      (
        await t.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.to, to), eq(mailOutbox.template, 'quota_warning')))
      ).length;

    await calls(4);
    await refused(20);
    expect(await race()).toEqual([]);
    await calls(1);
    expect(await race()).toEqual([50]);
    expect(await race()).toEqual([]);
    await calls(3);
    expect(await race()).toEqual([80]);
    await calls(2);
    expect(await race()).toEqual([100]);
    await calls(5);
    expect(await race()).toEqual([]);

    expect(await mails(owner.email)).toBe(3);
    expect(await mails(admin.email)).toBe(3);
    expect(await mails(developer.email)).toBe(0);
    await expect.poll(() => events.length).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual([
      {
        type: 'limit.threshold',
        timestamp: expect.any(String),
        data: { limit: 'plan_calls', percent: 50, used: 5, cap: 10 },
      },
      {
        type: 'limit.threshold',
        timestamp: expect.any(String),
        data: { limit: 'plan_calls', percent: 80, used: 8, cap: 10 },
      },
      {
        type: 'limit.reached',
        timestamp: expect.any(String),
        data: { limit: 'plan_calls', percent: 100, used: 10, cap: 10 },
      },
    ]);
  });
});
