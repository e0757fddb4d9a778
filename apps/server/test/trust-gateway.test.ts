import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/lib/crypto';
import { createTestApp, type TTestApp } from './helpers';
import { insertAccount, insertKey } from './gateway-fixtures';
import { bearer, seedUser, signIn } from './identity-helpers';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ upstreamAllowPrivate: false });
});
afterAll(async () => t?.close());

const randomKey = () => `air_${randomBase62(40)}`;

function invoke(key: string, model: string, remoteAddress: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    remoteAddress,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ model, messages: [] }),
  });
}

describe('unknown keys and routes', () => {
  it('a burst of 200 random keys from one address asks the database at most 30 times', async () => {
    const address = '198.51.100.20';
    const known = randomKey();
    expect((await invoke(known, 'any', address)).statusCode).toBe(401);
    const burst = await Promise.all(Array.from({ length: 200 }, () => invoke(randomKey(), 'any', address)));
    const codes = burst.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(29);
    expect(codes.filter((code) => code === 429)).toHaveLength(171);
    const limited = burst.find((res) => res.statusCode === 429)!;
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.headers['x-content-type-options']).toBe('nosniff');
    expect(limited.json().error.type).toBe('rate_limit_error');
    // A key already known to be unknown is answered from the cache: no look-up, no budget.
    expect((await invoke(known, 'any', address)).statusCode).toBe(401);
    // Another address has its own budget; the console API is limited the same way.
    expect((await invoke(randomKey(), 'any', '198.51.100.21')).statusCode).toBe(401);
    const consoleCall = await t.app.inject({
      url: '/api/aiendpoint',
      remoteAddress: address,
      headers: bearer(randomKey()),
    });
    expect(consoleCall.statusCode).toBe(429);
  });

  it('unknown route names are budgeted per address too; a known key keeps working', async () => {
    const address = '198.51.100.30';
    const account = await insertAccount(t.db, 'Routes');
    const key = await insertKey(t.db, t.config.secret, account.id);
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await invoke(key.raw, `nope-${i}`, address)).statusCode);
    // The key's own look-up found it (refunded): 30 route misses, then 429.
    expect(codes.slice(0, 30).every((code) => code === 404)).toBe(true);
    expect(codes[30]).toBe(429);
    // A known-missing route is answered from the cache.
    expect((await invoke(key.raw, 'nope-1', address)).statusCode).toBe(404);
  });
});

describe('endpoint addresses', () => {
  it('refuses the IPv6 forms of loopback at save', async () => {
    await seedUser(t.app, { email: 'v6@x.io' });
    const auth = bearer((await signIn(t.app, 'v6@x.io')).token);
    for (const host of ['[::127.0.0.1]', '[::7f00:1]', '[::ffff:0:7f00:1]']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/aiendpoint',
        headers: auth,
        payload: {
          name: 'Loop',
          route_name: `mock/loop-${host.length}`,
          route_endpoint: `http://${host}:8080/v1`,
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ inputError: 'route_endpoint' });
    }
  });
});
