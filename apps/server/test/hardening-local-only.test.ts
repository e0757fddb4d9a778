import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';

/*
 * Issue 21, item 4: /metrics answers only a caller on the server itself that no proxy forwarded,
 * or one with `Authorization: Bearer <METRICS_TOKEN>`; the developer tools (dev outbox, billing
 * clock) answer only the first. Behind the shipped proxy on the same machine (TRUST_PROXY=loopback)
 * the socket's peer is loopback for every client, so the forwarding headers decide.
 */

let t: TTestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const TOKEN = 'metrics-token-0123456789abcdef';
const forwarded: Record<string, string>[] = [
  { 'x-forwarded-for': '203.0.113.7' },
  { forwarded: 'for=203.0.113.7;proto=https' },
  { 'x-real-ip': '203.0.113.7' },
];

describe('/metrics', () => {
  it('behind a proxy on this machine: 404 to every forwarded client, 200 to a local scraper', async () => {
    t = await createTestApp({ trustProxy: 'loopback' });
    for (const headers of forwarded) {
      const res = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(res.body).not.toContain('air_');
    }
    expect((await t.app.inject({ url: '/metrics', remoteAddress: '10.0.0.9' })).statusCode).toBe(404);
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const local = await t.app.inject({ url: '/metrics', remoteAddress });
      expect(local.statusCode, remoteAddress).toBe(200);
      expect(local.body).toContain('air_process_resident_memory_bytes');
    }
  });

  it('with METRICS_TOKEN: the bearer token opens it from anywhere; a wrong or missing one is 401', async () => {
    t = await createTestApp({ trustProxy: 'loopback', metricsToken: TOKEN });
    const remote = { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } };
    const ok = await t.app.inject({
      url: '/metrics',
      ...remote,
      headers: { ...remote.headers, authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('air_process_resident_memory_bytes');
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      TOKEN,
      'Bearer ',
    ]) {
      const res = await t.app.inject({
        url: '/metrics',
        remoteAddress: '198.51.100.4',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain('air_');
    }
  });
});

describe('developer tools answer only non-forwarded local callers', () => {
  it('dev outbox and billing clock: 404 through a proxy on this machine, 200 direct', async () => {
    t = await createTestApp({ trustProxy: 'loopback' });
    const clock = (headers: Record<string, string>) =>
      t!.app.inject({
        method: 'POST',
        url: '/api/dev/billing-clock',
        remoteAddress: '127.0.0.1',
        headers,
        payload: { advance_ms: 0 },
      });
    for (const headers of forwarded) {
      for (const url of ['/dev/mail.json', '/dev/mail']) {
        const res = await t.app.inject({ url, remoteAddress: '127.0.0.1', headers });
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(404);
      }
      expect((await clock(headers)).statusCode).toBe(404);
    }
    expect((await t.app.inject({ url: '/dev/mail.json', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    expect((await clock({})).statusCode).toBe(200);
  });
});
