import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';
import {
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  type TMockUpstream,
} from './gateway-fixtures';

let t: TTestApp;
let upstream: TMockUpstream;

beforeAll(async () => {
  upstream = await startMockUpstream();
  t = await createTestApp({ upstreamAllowPrivate: false });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

describe('UPSTREAM_ALLOW_PRIVATE=false', () => {
  it('refuses to connect to a private upstream, by IP literal or by a name resolving to one', async () => {
    const account = await insertAccount(t.db, 'Private');
    const key = await insertKey(t.db, t.config.secret, account.id);
    const port = new URL(upstream.url).port;
    await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName: 'mock/literal',
      routeEndpoint: `${upstream.url}/ok`,
    });
    await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName: 'mock/named',
      routeEndpoint: `http://localhost:${port}/ok`,
    });
    const before = upstream.seen.length;
    for (const model of ['mock/literal', 'mock/named']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1',
        headers: { authorization: `Bearer ${key.raw}`, 'content-type': 'application/json' },
        payload: { model },
      });
      expect(res.statusCode, model).toBe(502);
      expect(res.json().error.code).toBe('upstream_unreachable');
    }
    expect(upstream.seen.length).toBe(before);
  });
});
