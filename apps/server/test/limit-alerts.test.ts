import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, apiKeys, mailOutbox, spendLimits, usageEvents } from '../src/db/schema';
import { PICOS_PER_MINOR } from '../src/modules/money/service';
import { insertKey } from './gateway-fixtures';
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

  it("tells a key's budget, the spend limit and a key's sustained tokens at 50, 80 and 100 %, once each, by mail and webhook", async () => {
    const owner = await createActor(t.app);
    const admin = await createActor(t.app, { accountId: owner.accountId, role: 'admin' });
    await createWebhook({ db: t.db, secret: t.config.secret, allowPrivate: true }, owner.accountId, {
      url: receiverUrl,
      events: ['limit.threshold', 'limit.reached'],
    });
    // A key with a budget of 10.00 and 100 tokens a minute; the account's spend limit is 20.00.
    const key = await insertKey(t.db, t.config.secret, owner.accountId);
    const other = await insertKey(t.db, t.config.secret, owner.accountId);
    await t.db
      .update(apiKeys)
      .set({ monthlySpend: 1000, tokensPerMinute: 100 })
      .where(eq(apiKeys.id, key.id));
    await t.db.insert(spendLimits).values({ accountId: owner.accountId, limitMinor: 2000 });
    const endpointId = randomUUID();
    /** One priced call of `minor` minor units with `tokens` tokens, by `keyId`, a minute ago. */
    const spent = (keyId: string, minor: number, tokens = 0) =>
      t.db.insert(usageEvents).values({
        callerAccountId: owner.accountId,
        keyId,
        endpointId,
        status: 200,
        latencyMs: 3,
        promptTokens: tokens / 2,
        completionTokens: tokens / 2,
        costPicos: minor * PICOS_PER_MINOR,
        pricePerCall: 0,
        pricePer1mInput: 0,
        pricePer1mOutput: 0,
        createdAt: new Date(Date.now() - 60_000),
      });
    const race = async () => {
      const [a, b] = await Promise.all([checkLimitAlerts(t.app), checkLimitAlerts(t.app)]);
      return [...a, ...b]
        .filter((sent) => sent.accountId === owner.accountId)
        .map((sent) => `${sent.limit} ${sent.level}`)
        .sort();
    };
    const mails = async (to: string) =>
      (
        await t.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.to, to), eq(mailOutbox.template, 'limit_warning')))
      ).length;
    const before = events.length;

    // 5.00 of the key's 10.00 and 500 tokens in ten minutes: 50 tokens a minute of its 100.
    await spent(key.id, 500, 500);
    expect(await race()).toEqual(['key_spend 50', 'key_tokens 50']);
    expect(await race()).toEqual([]);
    await spent(key.id, 300);
    expect(await race()).toEqual(['key_spend 80']);
    // 10.00 of 10.00 and 100 tokens a minute; the account is at 10.00 of 20.00.
    await spent(key.id, 200, 500);
    expect(await race()).toEqual(['key_spend 100', 'key_tokens 100', 'spend_limit 50']);
    // Another key spends the rest of the account's limit: 80 and 100 at once tell 100 only.
    await spent(other.id, 1000);
    expect(await race()).toEqual(['spend_limit 100']);
    expect(await race()).toEqual([]);

    expect(await mails(owner.email)).toBe(7);
    expect(await mails(admin.email)).toBe(7);
    await expect.poll(() => events.length - before).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const told = events.slice(before).map((event) => event.data);
    expect(told).toContainEqual({ limit: 'key_spend', percent: 80, used: 800, cap: 1000, key_id: key.id });
    expect(told).toContainEqual({ limit: 'key_tokens', percent: 100, used: 100, cap: 100, key_id: key.id });
    expect(told).toContainEqual({ limit: 'spend_limit', percent: 100, used: 2000, cap: 2000 });
    expect(told).toHaveLength(7);
    const texts = (
      await t.db
        .select({ text: mailOutbox.text })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, owner.email), eq(mailOutbox.template, 'limit_warning')))
    ).map((mail) => mail.text);
    // Amounts in the billing currency, tokens as a rate.
    expect(texts.some((text) => text.includes('has spent $5.00 of its $10.00'))).toBe(true);
    expect(texts.some((text) => text.includes('50 tokens a minute on average, of the 100'))).toBe(true);
  });
});
