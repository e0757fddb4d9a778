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
  t = await createTestApp({ upstreamAllowPrivate: true });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

describe('GET /metrics', () => {
  it('exposes gateway calls, errors by code and latency histograms in Prometheus format', async () => {
    const account = await insertAccount(t.db, 'Metrics');
    const key = await insertKey(t.db, t.config.secret, account.id);
    await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName: 'mock/metrics',
      routeEndpoint: `${upstream.url}/ok`,
    });
    const headers = { authorization: `Bearer ${key.raw}`, 'content-type': 'application/json' };
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1',
      headers,
      payload: { model: 'mock/metrics' },
    });
    expect(ok.statusCode).toBe(200);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v1',
      headers,
      payload: { model: 'mock/none' },
    });
    expect(missing.statusCode).toBe(404);

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('air_gateway_calls_total{status="200"} 1');
    expect(res.body).toContain('air_gateway_calls_total{status="404"} 1');
    expect(res.body).toContain('air_gateway_errors_total{code="route_not_found"} 1');
    expect(res.body).toMatch(/air_gateway_request_duration_seconds_count 2/);
    expect(res.body).toMatch(/air_gateway_upstream_duration_seconds_count 1/);
    expect(res.body).toContain('air_process_resident_memory_bytes');
  });
});
