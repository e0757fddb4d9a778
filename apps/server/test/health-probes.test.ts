import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { drainAndClose } from '../src/core/shutdown';
import { createTestApp, type TTestApp } from './helpers';
import { freePort, startRedis, stopRedis } from './instances';

/** Issue 43 item 3: `/livez` and `/readyz` for an orchestrator's probes (decision 046). */

let t: TTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function readyz(test: TTestApp) {
  const response = await test.app.inject({ url: '/readyz' });
  return { status: response.statusCode, type: response.headers['content-type'], body: response.json() };
}

describe('/livez and /readyz', () => {
  it('answer JSON: alive, and ready with every check passing', async () => {
    t = await createTestApp();
    const live = await t.app.inject({ url: '/livez' });
    expect(live.statusCode).toBe(200);
    expect(live.headers['content-type']).toMatch(/^application\/json/);
    expect(live.json()).toEqual({ status: 'alive' });
    const ready = await readyz(t);
    expect(ready.type).toMatch(/^application\/json/);
    expect(ready).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'up', migrations: 'applied', draining: false } },
    });
    expect(ready.body.checks).not.toHaveProperty('redis');
  });

  it('readyz answers 503 when the database is gone, while livez stays 200', async () => {
    t = await createTestApp();
    await t.database.close();
    expect(await readyz(t)).toMatchObject({
      status: 503,
      body: { status: 'not_ready', checks: { database: 'down', migrations: 'unknown' } },
    });
    expect((await t.app.inject({ url: '/livez' })).statusCode).toBe(200);
  });

  it('readyz answers 503 while a migration of this build is not applied', async () => {
    t = await createTestApp();
    const table = sql.raw('drizzle.__drizzle_migrations');
    const removed = (await t.db.execute(
      sql`delete from ${table} where id = (select max(id) from ${table}) returning id, hash, created_at`,
    )) as { rows: { id: number; hash: string; created_at: string }[] };
    const row = removed.rows[0]!;
    try {
      expect(await readyz(t)).toMatchObject({
        status: 503,
        body: { status: 'not_ready', checks: { database: 'up', migrations: 'pending' } },
      });
    } finally {
      await t.db.execute(
        sql`insert into ${table} (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`,
      );
    }
    expect((await readyz(t)).status).toBe(200);
  });

  it('readyz answers 503 draining once a graceful shutdown began', async () => {
    t = await createTestApp();
    // A generous delay: the probe below lands inside it even on a busy machine.
    const closed = drainAndClose(t.app, { delayMs: 2000, timeoutMs: 5000 });
    expect(await readyz(t)).toMatchObject({
      status: 503,
      body: { status: 'draining', checks: { database: 'up', draining: true } },
    });
    await closed;
  });
});

describe('with REDIS_URL', () => {
  it('readyz follows Redis; its going down and coming back are logged once each', async () => {
    const port = await freePort();
    startRedis(port);
    const lines: { level: number; msg: string; redis?: string }[] = [];
    try {
      t = await createTestApp(
        { redisUrl: `redis://:pw-never-logged@127.0.0.1:${port}`, logLevel: 'info' },
        { logStream: { write: (line) => void lines.push(JSON.parse(line)) } },
      );
      const probe = async () => (await readyz(t!)).body.checks.redis;
      await expect.poll(probe, { timeout: 10_000 }).toBe('up');
      expect((await readyz(t)).status).toBe(200);

      stopRedis(port);
      await expect.poll(probe, { timeout: 10_000 }).toBe('down');
      expect(await readyz(t)).toMatchObject({ status: 503, body: { status: 'not_ready' } });
      // ioredis retries meanwhile: each retry that fails must not log again.
      await new Promise((resolve) => setTimeout(resolve, 1500));

      startRedis(port);
      await expect.poll(probe, { timeout: 15_000 }).toBe('up');
      expect((await readyz(t)).status).toBe(200);
    } finally {
      stopRedis(port);
    }
    const down = lines.filter((line) => line.msg.includes('Redis unreachable'));
    const back = lines.filter((line) => line.msg.includes('Redis reachable again'));
    expect(down).toHaveLength(1);
    expect(down[0]).toMatchObject({ level: 50, redis: `127.0.0.1:${port}` });
    expect(down[0]!.msg).toMatch(/^REDIS_URL: /);
    expect(back).toHaveLength(1);
    expect(back[0]!.level).toBe(30);
    expect(JSON.stringify(lines)).not.toContain('pw-never-logged');
  }, 60_000);
});
