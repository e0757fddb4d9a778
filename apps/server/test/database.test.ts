import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { accounts, apiKeys, plans, users } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';

let t: TTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('database', () => {
  it('starts migrated with the built-in plans seeded', async () => {
    t = await createTestApp();
    const rows = await t.db.select().from(plans).orderBy(plans.sort);
    expect(rows.map((row) => [row.id, row.type, row.price])).toEqual([
      ['free', 'flat', 0],
      ['pro', 'flat', 2900],
      ['team', 'tiered', 1900],
    ]);
    expect(t.app.plans.map((plan) => plan.id)).toEqual(['free', 'pro', 'team']);
  });

  it('gives every test app its own fresh database', async () => {
    t = await createTestApp();
    await t.db.insert(accounts).values({ name: 'Isolated' });
    await t.close();
    t = await createTestApp();
    expect(await t.db.select().from(accounts)).toEqual([]);
  });

  it('seeds the plans of PLANS_FILE instead', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'air-plans-')), 'plans.json');
    const plan = {
      currency: 'eur',
      currency_symbol: '€',
      interval: 'month',
      type: 'flat',
      quota_calls_month: 10,
      rate_limit_per_minute: 5,
    };
    writeFileSync(
      file,
      JSON.stringify({ plans: [{ ...plan, id: 'free', name: 'Gratis', price: 0, sort: 0 }] }),
    );
    t = await createTestApp({ plansFile: file });
    // A plan file without a token limit seeds a plan without one.
    expect(t.app.plans).toEqual([
      { ...plan, id: 'free', name: 'Gratis', price: 0, sort: 0, tokens_per_minute: null },
    ]);
    const [free] = await t.db.select().from(plans).where(eq(plans.id, 'free'));
    expect(free).toMatchObject({ name: 'Gratis', currencySymbol: '€', quotaCallsMonth: 10 });
  });

  it('enforces lower-case unique emails and cascades an account delete to its keys', async () => {
    t = await createTestApp();
    await expect(t.db.insert(users).values({ name: 'A', email: 'Upper@Example.com' })).rejects.toThrow();
    await t.db.insert(users).values({ name: 'A', email: 'a@example.com' });
    await expect(t.db.insert(users).values({ name: 'B', email: 'a@example.com' })).rejects.toThrow();

    const [account] = await t.db.insert(accounts).values({ name: 'Acme', planId: 'free' }).returning();
    await t.db.insert(apiKeys).values({
      accountId: account!.id,
      name: 'ci',
      keyHash: 'h',
      keyEnc: 'e',
      keyPrefix: 'air_abcd',
      scope: ['gateway.invoke'],
    });
    await t.db.delete(accounts).where(eq(accounts.id, account!.id));
    expect(await t.db.select().from(apiKeys)).toEqual([]);
  });

  it('answers /healthz with 503 when the database is gone', async () => {
    t = await createTestApp();
    await t.database.close();
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
  });
});
