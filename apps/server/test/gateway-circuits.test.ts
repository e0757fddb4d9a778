import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRoutingConfig, TUpstreamHealth } from '@air/shared/schemas/aiendpoint';
import { aiEndpoints } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { insertAccount, insertEndpoint, insertKey, writeTestPlans } from './gateway-fixtures';
import { refusedUrl, startProgrammableUpstream, type TProgrammableUpstream } from './routing-fixtures';

/*
 * Contract 6a, "no account can open a circuit for another", through the real gateway: circuits
 * belong to the endpoint, failures that may depend on one caller's body open it for that caller
 * only, and the metrics never carry an upstream URL's path, query or user part.
 */

let t: TTestApp;
let base: string;
let plansDir: string;
let secret: string;
const upstreams: TProgrammableUpstream[] = [];

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-circuits-plans-'));
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true });
  secret = t.config.secret;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
  for (const upstream of upstreams) await upstream.close();
  rmSync(plansDir, { recursive: true, force: true });
});

async function upstream(name: string) {
  const started = await startProgrammableUpstream(name);
  upstreams.push(started);
  return started;
}

let counter = 0;
async function account(name: string) {
  counter += 1;
  const row = await insertAccount(t.db, `${name} ${counter}`, 'free');
  const key = await insertKey(t.db, secret, row.id);
  const reader = await insertKey(t.db, secret, row.id, ['aiendpoint.read']);
  return { id: row.id, key: key.raw, reader: reader.raw };
}

/** A routed endpoint of `accountId` on these upstream URLs, shared publicly (free) unless told. */
async function routed(
  accountId: string,
  urls: string[],
  routing: Omit<TRoutingConfig, 'upstreams'>,
  extra: { upstreamTimeoutMs?: number } = {},
) {
  counter += 1;
  const routeName = `circuits/r-${counter}`;
  const endpoint = await insertEndpoint(t.db, secret, accountId, {
    routeName,
    routeEndpoint: urls[0]!,
    isShared: true,
    isPrivate: false,
    ...extra,
  });
  await t.db
    .update(aiEndpoints)
    .set({ routing: { upstreams: urls.map((url) => ({ url, weight: 1 })), ...routing } })
    .where(eq(aiEndpoints.id, endpoint.id));
  return { routeName, id: endpoint.id };
}

/** One call's status (its body read), with `content` as the user's message. */
async function call(rawKey: string, routeName: string, content = 'Hi') {
  const answer = await fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${rawKey}` },
    body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content }] }),
  });
  const body = (await answer.json()) as { error?: { code: string } };
  return { status: answer.status, code: body.error?.code, retryAfter: answer.headers.get('retry-after') };
}

/** The owner's view of the endpoint's upstreams (`GET /api/aiendpoint/{id}/upstreams`). */
async function view(reader: string, id: string): Promise<TUpstreamHealth['upstreams']> {
  const answer = await t.app.inject({
    url: `/api/aiendpoint/${id}/upstreams`,
    headers: { authorization: `Bearer ${reader}` },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return (answer.json() as { data: TUpstreamHealth }).data.upstreams;
}

describe('no account can open a circuit for another (contract 6a)', () => {
  it("keeps the victim's endpoint serving when another account's tight circuit on the same URL opens", async () => {
    const shared = await upstream('shared');
    const victim = await account('Victim');
    const attacker = await account('Attacker');
    const own = await routed(victim.id, [shared.url], { circuit: { failures: 5, cooldown_s: 30 } });
    const tight = await routed(
      attacker.id,
      [shared.url],
      { circuit: { failures: 1, cooldown_s: 3600 } },
      { upstreamTimeoutMs: 300 },
    );
    shared.queue({ kind: 'hang' });
    expect((await call(attacker.key, tight.routeName)).code).toBe('upstream_timeout');
    // The attacker's own endpoint is open (its owner's settings, its owner's failure)...
    expect(await call(attacker.key, tight.routeName)).toMatchObject({
      status: 503,
      code: 'upstreams_unavailable',
    });
    // ...and the victim's, on the same URL, is not.
    for (let i = 0; i < 3; i++) expect((await call(victim.key, own.routeName)).status).toBe(200);
    expect((await view(victim.reader, own.id))[0]).toMatchObject({ state: 'closed', open_reason: null });
  });

  it('opens the circuit for a marketplace caller alone when its bodies make the upstream fail', async () => {
    const up = await upstream('body-sensitive');
    up.behave({ kind: 'status-if', contains: 'poison', status: 500 });
    const owner = await account('Owner');
    const mallory = await account('Mallory');
    const other = await account('Other');
    const route = await routed(owner.id, [up.url], { circuit: { failures: 5, cooldown_s: 60 } });
    for (let i = 0; i < 5; i++) expect((await call(mallory.key, route.routeName, 'poison')).status).toBe(500);
    // The sixth does not reach the upstream: the circuit is open for this caller, whatever it sends.
    const sixth = await call(mallory.key, route.routeName, 'poison');
    expect(sixth).toMatchObject({ status: 503, code: 'upstreams_unavailable' });
    expect(Number(sixth.retryAfter)).toBeGreaterThan(50);
    expect((await call(mallory.key, route.routeName, 'fine')).status).toBe(503);
    expect(up.calls).toHaveLength(5);
    // Everyone else, the owner too, is served.
    expect((await call(other.key, route.routeName)).status).toBe(200);
    expect((await call(owner.key, route.routeName)).status).toBe(200);
    expect((await call(other.key, route.routeName)).status).toBe(200);
    expect((await view(owner.reader, route.id))[0]).toMatchObject({
      state: 'closed',
      open_reason: null,
      open_for_callers: 1,
      failures_1h: 5,
    });
  });

  it('opens it for everyone when callers of two accounts fail in a row, saying so to the owner', async () => {
    const up = await upstream('two-callers');
    up.behave({ kind: 'status-if', contains: 'poison', status: 500 });
    const owner = await account('Owner');
    const first = await account('First');
    const second = await account('Second');
    const other = await account('Other');
    const route = await routed(owner.id, [up.url], { circuit: { failures: 4, cooldown_s: 60 } });
    for (let i = 0; i < 2; i++) {
      expect((await call(first.key, route.routeName, 'poison')).status).toBe(500);
      expect((await call(second.key, route.routeName, 'poison')).status).toBe(500);
    }
    expect((await call(other.key, route.routeName)).code).toBe('upstreams_unavailable');
    expect((await view(owner.reader, route.id))[0]).toMatchObject({
      state: 'open',
      open_reason: 'callers',
      opened_by_callers: 2,
    });
  });

  it("opens it for everyone on the owner's own failing calls", async () => {
    const up = await upstream('owner-fails');
    up.behave({ kind: 'status-if', contains: 'poison', status: 502 });
    const owner = await account('Owner');
    const other = await account('Other');
    const route = await routed(owner.id, [up.url], { circuit: { failures: 3, cooldown_s: 60 } });
    for (let i = 0; i < 3; i++) expect((await call(owner.key, route.routeName, 'poison')).status).toBe(502);
    expect((await call(other.key, route.routeName)).code).toBe('upstreams_unavailable');
    expect((await view(owner.reader, route.id))[0]).toMatchObject({ state: 'open', open_reason: 'owner' });
  });

  it('opens it for everyone when a caller meets a refused connection (it cannot depend on the body)', async () => {
    const gone = await refusedUrl();
    const owner = await account('Owner');
    const caller = await account('Caller');
    const other = await account('Other');
    const route = await routed(owner.id, [gone], { circuit: { failures: 2, cooldown_s: 60 } });
    for (let i = 0; i < 2; i++)
      expect((await call(caller.key, route.routeName)).code).toBe('upstream_unreachable');
    expect((await call(other.key, route.routeName)).code).toBe('upstreams_unavailable');
    expect((await view(owner.reader, route.id))[0]).toMatchObject({
      state: 'open',
      open_reason: 'connection',
    });
  });
});

describe('upstream metrics', () => {
  it("label upstreams by route and host, never the URL's path, query or user part", async () => {
    const up = await upstream('secret-url');
    const host = new URL(up.url).host;
    const url = `http://user:pass@${host}/v1/chat/completions?key=SEKRET123`;
    const owner = await account('Owner');
    const route = await routed(owner.id, [url], { circuit: { failures: 1, cooldown_s: 60 } });
    expect((await call(owner.key, route.routeName)).status).toBe(200);
    up.behave({ kind: 'status', status: 500 });
    expect((await call(owner.key, route.routeName)).status).toBe(500);
    const metrics = (await t.app.inject({ url: '/metrics' })).body;
    const labels = `{route="${route.routeName}",upstream="${host}"}`;
    expect(metrics).toContain(`air_gateway_upstream_attempts_total${labels} 2`);
    expect(metrics).toContain(`air_gateway_upstream_failures_total${labels} 1`);
    expect(metrics).toContain(`air_gateway_upstream_circuit_state${labels} 1`);
    for (const leak of ['SEKRET123', 'user:pass', 'pass@', '/v1/chat/completions'])
      expect(metrics).not.toContain(leak);
  });
});
