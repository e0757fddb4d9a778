import { expect } from 'vitest';
import type { TApp } from '../src/app';
import type { TConfig } from '../src/config';
import { send } from './billing-helpers';
import { startMockUpstream, type TMockUpstream } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';

/** A test app whose gateway is called over HTTP (`base`), and the mock upstream its routes forward to. */
export interface TListeningApp {
  t: TTestApp;
  upstream: TMockUpstream;
  base: string;
}

/**
 * Starts the mock upstream, then a test app allowed to call it, listening on a loopback port.
 * Close both in afterAll with stopListeningApp.
 */
export async function startListeningApp(config: Partial<TConfig> = {}): Promise<TListeningApp> {
  const upstream = await startMockUpstream();
  try {
    const t = await createTestApp({ upstreamAllowPrivate: true, ...config });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    return { t, upstream, base };
  } catch (error) {
    await upstream.close();
    throw error;
  }
}

/** Closes what startListeningApp started (either may be missing when it failed). */
export async function stopListeningApp({ t, upstream }: Partial<TListeningApp>): Promise<void> {
  await t?.close();
  await upstream?.close();
}

/** One chat call through the gateway listening at `base`, with the key and route given. */
export function chatOverHttp(
  base: string,
  key: string,
  routeName: string,
  content = 'hi',
): Promise<Response> {
  return fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content }] }),
  });
}

/** `owner` shares a priced route forwarding to `endpoint` (created: 201); answers its id. */
export async function sharePricedRoute(
  app: TApp,
  owner: { headers: Record<string, string> },
  routeName: string,
  endpoint: string,
  price: object,
): Promise<string> {
  const created = await send(app, owner.headers, 'POST', '/api/aiendpoint', {
    route_name: routeName,
    route_endpoint: endpoint,
    isShared: true,
    isPrivate: false,
    config: { price },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().data.id as string;
}
