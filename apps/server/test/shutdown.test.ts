import { connect } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { drainAndClose } from '../src/core/shutdown';
import { usageEvents } from '../src/db/schema';
import {
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  type TMockUpstream,
} from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';

let t: TTestApp | undefined;
let upstream: TMockUpstream | undefined;
afterEach(async () => {
  await t?.close();
  await upstream?.close();
  t = undefined;
  upstream = undefined;
});

/** A listening app with a key and two routes: `ok` (answers at once) and `held` (a held stream). */
async function listeningGateway(overrides: Parameters<typeof createTestApp>[0] = {}) {
  upstream = await startMockUpstream();
  t = await createTestApp(overrides);
  const account = await insertAccount(t.db, 'Drain');
  const key = await insertKey(t.db, t.config.secret, account.id);
  await insertEndpoint(t.db, t.config.secret, account.id, {
    routeName: 'ok',
    routeEndpoint: `${upstream.url}/ok`,
  });
  await insertEndpoint(t.db, t.config.secret, account.id, {
    routeName: 'held',
    routeEndpoint: `${upstream.url}/held`,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, port, key: key.raw, keyId: key.id };
}

function chat(base: string, key: string, model: string, stream = false) {
  return fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Hi' }] }),
  });
}

/** Opens a held stream and reads until its first chunk arrived (the call is in flight). */
async function openHeldStream(base: string, key: string) {
  const response = await chat(base, key, 'held', true);
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('first')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before its first chunk');
    text += decoder.decode(value, { stream: true });
  }
  return {
    response,
    /** The rest of the stream, or how it broke off. */
    async rest(): Promise<string> {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return text;
          text += decoder.decode(value, { stream: true });
        }
      } catch (error) {
        return `${text}[broken: ${(error as Error).message}]`;
      }
    },
  };
}

/** Resolves once a TCP connection to the port is refused (the server stopped accepting). */
async function untilRefused(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('graceful shutdown (SIGTERM behind a balancer)', () => {
  it('answers /healthz 503 draining while still serving, then stops accepting, finishes the stream in flight and meters it', async () => {
    const { base, port, key, keyId } = await listeningGateway();
    const stream = await openHeldStream(base, key);

    // Generous delay: the two requests below must land inside it even on a busy machine.
    const closed = drainAndClose(t!.app, { delayMs: 4000, timeoutMs: 30_000 });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'draining' });
    // Requests still reach this instance until the balancer noticed: they are served.
    const served = await chat(base, key, 'ok');
    expect(served.status).toBe(200);
    await served.arrayBuffer();

    // After the delay no new connection is accepted, while the stream is still in flight.
    await untilRefused(port);
    upstream!.release();
    const text = await stream.rest();
    expect(text).toContain('second');
    expect(text).toContain('data: [DONE]');
    await closed;

    // The meter wrote both calls when the app closed (the test's database is still open).
    const rows = await t!.db
      .select({ status: usageEvents.status, errorCode: usageEvents.errorCode })
      .from(usageEvents)
      .where(eq(usageEvents.keyId, keyId));
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.status === 200 && row.errorCode === null)).toBe(true);
  }, 60_000);

  it('cuts a stream still running at the deadline, closes, and still meters that call', async () => {
    const { base, key, keyId } = await listeningGateway();
    const stream = await openHeldStream(base, key);

    await drainAndClose(t!.app, { delayMs: 0, timeoutMs: 300 });
    expect(await stream.rest()).toMatch(/\[broken: /);
    const rows = await t!.db
      .select({ errorCode: usageEvents.errorCode })
      .from(usageEvents)
      .where(eq(usageEvents.keyId, keyId));
    expect(rows).toEqual([{ errorCode: 'client_closed' }]);
  }, 60_000);
});

describe('x-air-instance', () => {
  it('names INSTANCE_NAME on every answer, gateway calls included, and is absent without it', async () => {
    const { base, key } = await listeningGateway({ instanceName: 'air-7' });
    const health = await fetch(`${base}/healthz`);
    expect(health.headers.get('x-air-instance')).toBe('air-7');
    const call = await chat(base, key, 'ok');
    expect(call.status).toBe(200);
    expect(call.headers.get('x-air-instance')).toBe('air-7');
    await call.arrayBuffer();
    const unauthenticated = await chat(base, 'air_wrong', 'ok');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('x-air-instance')).toBe('air-7');
    await t!.close();
    await upstream!.close();

    const { base: plainBase } = await listeningGateway();
    expect((await fetch(`${plainBase}/healthz`)).headers.get('x-air-instance')).toBeNull();
  });
});
