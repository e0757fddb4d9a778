import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type TApp } from '../src/app';
import { accountUsers } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { seedUser, signIn } from './identity-helpers';
import { caller } from './teams-helpers';

/** Two instances on one database and one Redis change bus: role changes and removals apply on both. */
let first: TTestApp;
let second: TApp;

beforeAll(async () => {
  first = await createTestApp({ redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
  second = await buildApp(first.config, { database: first.database });
}, 60_000);
afterAll(async () => {
  await second.close();
  await first.close();
});

describe('teams across instances (Redis change bus)', () => {
  it('a role change and a removal made on one instance apply to the next request on the other', async () => {
    const owner = await seedUser(first.app, { email: 'o@r.io' });
    const dev = await seedUser(first.app, { email: 'd@r.io', role: 'developer', accountId: owner.accountId });
    const ownerToken = (await signIn(first.app, 'o@r.io')).token;
    const devToken = (await signIn(first.app, 'd@r.io')).token;
    const onFirst = caller(first.app);
    const onSecond = caller(second);
    // The second instance has the member's session cached with the developer role.
    expect((await onSecond('GET', '/api/key', devToken)).statusCode).toBe(200);
    expect((await onSecond('GET', '/api/key', devToken)).statusCode).toBe(200);

    const change = await onFirst('PATCH', `/api/user/${dev.userId}`, ownerToken, { permission: 'user' });
    expect(change.statusCode).toBe(200);
    expect((await onFirst('GET', '/api/key', devToken)).statusCode).toBe(403);
    await expect
      .poll(async () => (await onSecond('GET', '/api/key', devToken)).statusCode, { timeout: 10_000 })
      .toBe(403);

    expect((await onSecond('GET', '/api/user', devToken)).statusCode).toBe(200);
    const removal = await onFirst('DELETE', `/api/user/${dev.userId}`, ownerToken);
    expect(removal.statusCode).toBe(200);
    await expect
      .poll(async () => (await onSecond('GET', '/api/user', devToken)).statusCode, { timeout: 10_000 })
      .toBe(401);
  }, 60_000);

  it('a member removed on one instance works in their other account at the next request on the other', async () => {
    const acme = await seedUser(first.app, { email: 'o2@r.io', accountName: 'Acme' });
    const beta = await seedUser(first.app, { email: 'b2@r.io', accountName: 'Beta' });
    const dev = await seedUser(first.app, { email: 'd2@r.io', role: 'developer', accountId: beta.accountId });
    await first.db
      .insert(accountUsers)
      .values({ accountId: acme.accountId, userId: dev.userId, permission: 'developer' });
    const ownerToken = (await signIn(first.app, 'o2@r.io')).token;
    const onFirst = caller(first.app);
    const onSecond = caller(second);
    const signedIn = (await signIn(first.app, 'd2@r.io')).token;
    const devToken = (await onFirst('POST', '/api/auth/switch', signedIn, { account: acme.accountId })).json()
      .data.token as string;
    // The second instance has the session cached in Acme.
    expect((await onSecond('GET', '/api/user', devToken)).json().data.account_id).toBe(acme.accountId);

    expect((await onFirst('DELETE', `/api/user/${dev.userId}`, ownerToken)).statusCode).toBe(200);
    await expect
      .poll(async () => (await onSecond('GET', '/api/user', devToken)).json().data?.account_id, {
        timeout: 10_000,
      })
      .toBe(beta.accountId);
    expect((await onSecond('GET', '/api/auth', devToken)).json().data.moved).toEqual({
      reason: 'removed',
      account_name: 'Acme',
    });
    expect((await onFirst('GET', '/api/auth', devToken)).json().data).not.toHaveProperty('moved');
  }, 60_000);
});
