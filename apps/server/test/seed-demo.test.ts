import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { demoUsage, seedDemo, seedDemoAtomically, type TDemoSeed } from '../src/cli/seed-demo';
import type { TDb } from '../src/db/client';
import { createTestApp, type TTestApp } from './helpers';
import { signIn } from './identity-helpers';

describe('npm run cli -- seed-demo', () => {
  let t: TTestApp;
  let seed: TDemoSeed;

  beforeAll(async () => {
    t = await createTestApp();
    const result = await seedDemo(t.app, 'demo@example.com');
    if (!result) throw new Error('seedDemo made nothing');
    seed = result;
  });
  afterAll(() => t?.close());

  it('makes a verified user who signs in with the printed password and sees the demo', async () => {
    const session = await signIn(t.app, 'demo@example.com', seed.password);
    expect(session.verified).toBe(true);
    const auth = { authorization: `Bearer ${session.token}` };

    const endpoints = await t.app.inject({ method: 'GET', url: '/api/aiendpoint', headers: auth });
    const routes = (endpoints.json().data as { route_name: string; isShared: boolean }[]).map(
      (e) => e.route_name,
    );
    expect(routes.sort()).toEqual(['demo/handbook', 'demo/llama3.2', 'demo/support-agent']);

    const shared = await t.app.inject({ method: 'GET', url: '/api/aiendpointShared', headers: auth });
    expect((shared.json().data as { route_name: string }[]).map((e) => e.route_name)).toContain(
      'demo/support-agent',
    );

    const items = await t.app.inject({ method: 'GET', url: '/api/newitem', headers: auth });
    expect(items.json().data).toHaveLength(3);

    const insight = await t.app.inject({
      method: 'GET',
      url: '/api/account/usage/insight?period=last_30_days',
      headers: auth,
    });
    expect(insight.statusCode).toBe(200);
    expect(insight.json().data.caller.totals.calls).toBe(seed.usageRows);
    expect(seed.usageRows).toBeGreaterThan(300);
  });

  it('prints a working gateway key', async () => {
    const endpoints = await t.app.inject({
      method: 'GET',
      url: '/api/aiendpoint',
      headers: { authorization: `Bearer ${seed.apiKey}` },
    });
    expect(endpoints.statusCode).toBe(200);
    expect(endpoints.json().data).toHaveLength(3);
  });

  it('changes nothing when the address is taken', async () => {
    expect(await seedDemo(t.app, 'demo@example.com')).toBeNull();
    const session = await signIn(t.app, 'demo@example.com', seed.password);
    const endpoints = await t.app.inject({
      method: 'GET',
      url: '/api/aiendpoint',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(endpoints.json().data).toHaveLength(3);
  });

  it('writes no usage after the moment it runs, nor before the first of its 30 days', () => {
    const now = new Date('2026-03-01T00:05:00Z');
    const rows = demoUsage('a', 'k', ['e1', 'e2'], now);
    expect(rows.every((row) => row.createdAt.getTime() <= now.getTime())).toBe(true);
    // In the first hour of a UTC day too: "last 30 days" starts at midnight 29 days back.
    const first = Date.parse('2026-01-31T00:00:00Z');
    expect(rows.filter((row) => row.createdAt.getTime() < first)).toEqual([]);
    expect(new Set(rows.map((row) => row.endpointId))).toEqual(new Set(['e1', 'e2']));
  });
});

/** Every table's row count, by name: what a seed that changed nothing leaves as it was. */
async function rowCounts(db: TDb): Promise<Record<string, number>> {
  const tables = (await db.execute(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as { rows: { name: string }[] };
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const result = (await db.execute(sql.raw(`select count(*)::int as n from "${name}"`))) as {
      rows: { n: number }[];
    };
    counts[name] = Number(result.rows[0]!.n);
  }
  return counts;
}

describe('seed-demo in one transaction (issue 43 item 5)', () => {
  let t: TTestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('a seed that fails after its user, endpoints and key were made changes nothing', async () => {
    const before = await rowCounts(t.db);
    await expect(
      seedDemoAtomically(t.config, t.database, 'half@example.com', (step) => {
        if (step === 'key') throw new Error('stopped after the key');
      }),
    ).rejects.toThrow('stopped after the key');
    expect(await rowCounts(t.db)).toEqual(before);
  });

  it('a seed that succeeds is kept whole', async () => {
    const seed = await seedDemoAtomically(t.config, t.database, 'whole@example.com');
    expect(seed).not.toBeNull();
    const session = await signIn(t.app, 'whole@example.com', seed!.password);
    const endpoints = await t.app.inject({
      method: 'GET',
      url: '/api/aiendpoint',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(endpoints.json().data).toHaveLength(3);
  });
});
