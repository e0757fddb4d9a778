import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { aiEndpoints } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { insertAccount, insertEndpoint, insertKey, writeTestPlans } from './gateway-fixtures';
import { startProgrammableUpstream, type TProgrammableUpstream } from './routing-fixtures';

/*
 * Issue 43 item 2: with LOG_GATEWAY_CALLS=1 one JSON line per gateway call at info (request id,
 * route, key id, status, attempts, latency, tokens; never the key or content); every upstream
 * failure and every circuit change at warn.
 */

type TLine = Record<string, unknown> & { level: number; msg: string };

let t: TTestApp | undefined;
let upstream: TProgrammableUpstream | undefined;
let plansDir = '';
afterEach(async () => {
  await t?.close();
  await upstream?.close();
  t = undefined;
  upstream = undefined;
  rmSync(plansDir, { recursive: true, force: true });
});

async function gateway(logGatewayCalls: boolean) {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-call-log-'));
  const lines: TLine[] = [];
  t = await createTestApp(
    { plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true, logLevel: 'info', logGatewayCalls },
    { logStream: { write: (line) => void lines.push(JSON.parse(line) as TLine) } },
  );
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  upstream = await startProgrammableUpstream('logged');
  const account = await insertAccount(t.db, 'Logged', 'free');
  const key = await insertKey(t.db, t.config.secret, account.id);
  const endpoint = await insertEndpoint(t.db, t.config.secret, account.id, {
    routeName: 'logs/model',
    routeEndpoint: upstream.url,
  });
  const call = async (content: string) => {
    const answer = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.raw}` },
      body: JSON.stringify({ model: 'logs/model', messages: [{ role: 'user', content }] }),
    });
    await answer.arrayBuffer();
    return { status: answer.status, requestId: answer.headers.get('x-request-id') };
  };
  return { lines, key, endpoint, call, upstream };
}

describe('gateway call log (LOG_GATEWAY_CALLS)', () => {
  it('writes one info line per call with its ids and figures, never the key or the content', async () => {
    const { lines, key, call } = await gateway(true);
    const answer = await call('a secret prompt');
    expect(answer.status).toBe(200);
    await expect.poll(() => lines.filter((line) => line.msg === 'gateway call').length).toBe(1);
    const line = lines.find((entry) => entry.msg === 'gateway call')!;
    expect(line).toMatchObject({
      level: 30,
      reqId: answer.requestId,
      route: 'logs/model',
      keyId: key.id,
      status: 200,
      attempts: 1,
      cacheHit: false,
      errorCode: null,
    });
    expect(typeof line.latencyMs).toBe('number');
    expect(line).toHaveProperty('promptTokens');
    expect(line).toHaveProperty('completionTokens');
    const all = JSON.stringify(lines);
    expect(all).not.toContain(key.raw);
    expect(all).not.toContain('a secret prompt');
  });

  it('writes no call line without LOG_GATEWAY_CALLS', async () => {
    const { lines, call } = await gateway(false);
    expect((await call('hi')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines.filter((line) => line.msg === 'gateway call')).toEqual([]);
  });

  it('logs every upstream failure and the circuit opening and closing at warn', async () => {
    const { lines, endpoint, call, upstream: up } = await gateway(false);
    await t!.db
      .update(aiEndpoints)
      .set({ routing: { upstreams: [{ url: up.url, weight: 1 }], circuit: { failures: 2, cooldown_s: 1 } } })
      .where(eq(aiEndpoints.id, endpoint.id));
    up.behave({ kind: 'status', status: 503 });
    expect((await call('one')).status).toBe(503);
    expect((await call('two')).status).toBe(503);
    const failures = lines.filter((line) => line.msg === 'gateway: upstream failure');
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ level: 40, route: 'logs/model', upstream: new URL(up.url).host });
    const opened = lines.filter((line) => String(line.msg).startsWith('gateway: circuit opened'));
    expect(opened).toHaveLength(1);
    expect(opened[0]!.level).toBe(40);

    // After the cooldown a successful probe closes it: logged once, at warn.
    up.behave({ kind: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await expect.poll(async () => (await call('three')).status, { timeout: 10_000 }).toBe(200);
    const closed = lines.filter((line) => String(line.msg).startsWith('gateway: circuit closed'));
    expect(closed).toHaveLength(1);
    expect(closed[0]!.level).toBe(40);
  });
});
