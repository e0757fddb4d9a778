import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type TApp } from '../src/app';
import { createTestApp, type TTestApp } from './helpers';
import { seedUser, signIn } from './identity-helpers';
import { freePort, startRedis, stopRedis } from './instances';
import { caller } from './teams-helpers';

const onPostgres = process.env.AIR_TEST_DB === 'postgres';

/**
 * Far above what a request takes here and far below how long Redis stays away in these tests: a
 * request that waited for Redis would miss it. (Not a performance figure.)
 */
const BOUND_MS = 5000;

/** `work`, or a failure naming `what` if it has not settled within `ms`. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function redisState(app: TApp): Promise<string | undefined> {
  const response = await app.inject({ method: 'GET', url: '/healthz' });
  expect(response.statusCode).toBe(200);
  return (response.json() as { redis?: string }).redis;
}

function redisPid(port: number): number {
  const info = spawnSync('redis-cli', ['-p', String(port), 'info', 'server']).stdout.toString();
  return Number(/process_id:(\d+)/.exec(info)![1]);
}

// A private redis-server that the test stops, hangs and restarts; PostgreSQL so a second
// instance can share the database.
describe.runIf(onPostgres)('console and start with Redis down or hung', () => {
  let redisPort = 0;
  let t: TTestApp;
  let ownerToken = '';
  let devToken = '';
  let devId = '';
  let counter = 0;
  const call = () => caller(t.app);

  beforeAll(async () => {
    redisPort = await freePort();
    startRedis(redisPort);
    t = await createTestApp({ redisUrl: `redis://127.0.0.1:${redisPort}` });
    const owner = await seedUser(t.app, { email: 'o@outage.io' });
    const dev = await seedUser(t.app, {
      email: 'd@outage.io',
      role: 'developer',
      accountId: owner.accountId,
    });
    devId = dev.userId;
    ownerToken = (await signIn(t.app, 'o@outage.io')).token;
    devToken = (await signIn(t.app, 'd@outage.io')).token;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    if (redisPort) stopRedis(redisPort);
  });

  /** Creates a key, registers an endpoint, and changes the developer's role to `role`. */
  async function consoleWrites(role: 'user' | 'developer') {
    counter += 1;
    const key = await within(
      BOUND_MS,
      'creating an API key',
      call()('POST', '/api/key', ownerToken, { name: `k${counter}`, scope: ['gateway.invoke'] }),
    );
    expect(key.statusCode).toBe(201);
    const endpoint = await within(
      BOUND_MS,
      'registering an endpoint',
      call()('POST', '/api/aiendpoint', ownerToken, {
        route_name: `outage/model-${counter}.v1:${process.pid}`,
        route_endpoint: 'https://93.184.216.34/v1',
      }),
    );
    expect(endpoint.statusCode).toBe(201);
    const change = await within(
      BOUND_MS,
      'changing a role',
      call()('PATCH', `/api/user/${devId}`, ownerToken, { permission: role }),
    );
    expect(change.statusCode).toBe(200);
  }

  it('Redis hung (accepts connections, answers nothing): writes and sign-in answer within the bound', async () => {
    await expect.poll(() => redisState(t.app), { timeout: 10_000 }).toBe('up');
    const pid = redisPid(redisPort);
    // Every client is held for 60 s: only the kill below ends it.
    spawnSync('redis-cli', ['-p', String(redisPort), 'client', 'pause', '60000', 'ALL']);
    try {
      await consoleWrites('user');
      // Applied on this instance at once: the member's cached session has the new role.
      expect((await call()('GET', '/api/key', devToken)).statusCode).toBe(403);
      await within(BOUND_MS, 'signing in', signIn(t.app, 'd@outage.io'));
    } finally {
      process.kill(pid, 'SIGKILL');
    }
    await expect.poll(() => redisState(t.app), { timeout: 10_000 }).toBe('down');
    startRedis(redisPort);
    await expect.poll(() => redisState(t.app), { timeout: 15_000 }).toBe('up');
  }, 60_000);

  it('Redis stopped: writes and sign-in answer within the bound and apply here at once', async () => {
    stopRedis(redisPort);
    await expect.poll(() => redisState(t.app), { timeout: 10_000 }).toBe('down');
    await consoleWrites('developer');
    expect((await call()('GET', '/api/key', devToken)).statusCode).toBe(200);
    await within(BOUND_MS, 'signing in', signIn(t.app, 'd@outage.io'));
    const revoke = await call()('PATCH', `/api/user/${devId}`, ownerToken, { permission: 'user' });
    expect(revoke.statusCode).toBe(200);
    expect((await call()('GET', '/api/key', devToken)).statusCode).toBe(403);
  }, 60_000);

  it('an instance started while Redis is down starts and serves; /healthz says up once Redis comes', async () => {
    // Redis is still stopped (previous test).
    expect(await redisState(t.app)).toBe('down');
    const second = await within(
      BOUND_MS,
      'starting an instance',
      buildApp(t.config, { database: t.database }),
    );
    try {
      expect(await redisState(second)).toBe('down');
      const metrics = async () => (await second.inject({ method: 'GET', url: '/metrics' })).body;
      expect(await metrics()).toMatch(/^air_redis_up 0$/m);
      const onSecond = caller(second);
      expect((await onSecond('GET', '/api/key', ownerToken)).statusCode).toBe(200);
      expect((await onSecond('GET', '/api/key', devToken)).statusCode).toBe(403);
      const key = await within(
        BOUND_MS,
        'creating an API key on the new instance',
        onSecond('POST', '/api/key', ownerToken, { name: 'late', scope: ['gateway.invoke'] }),
      );
      expect(key.statusCode).toBe(201);

      startRedis(redisPort);
      await expect.poll(() => redisState(second), { timeout: 15_000 }).toBe('up');
      expect(await metrics()).toMatch(/^air_redis_up 1$/m);
      await expect.poll(() => redisState(t.app), { timeout: 15_000 }).toBe('up');
      // The change bus connected late too: a change made on the first instance reaches the second.
      const change = await call()('PATCH', `/api/user/${devId}`, ownerToken, { permission: 'developer' });
      expect(change.statusCode).toBe(200);
      await expect
        .poll(async () => (await onSecond('GET', '/api/key', devToken)).statusCode, { timeout: 10_000 })
        .toBe(200);
    } finally {
      await second.close();
    }
  }, 60_000);
});
