import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints } from '../src/db/schema';
import { createWebhook } from '../src/modules/webhooks/service';
import { advance, CARDS, cardToken, newOwner, send } from './billing-helpers';
import { insertAccount, insertEndpoint, insertKey, writeTestPlans } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';
import { refusedUrl } from './routing-fixtures';

/*
 * Events that come from elsewhere than the console (issue 42 item 4): a circuit the gateway opens
 * reaches the endpoint owner's webhook, queued off the call's path; billing's invoices report
 * paid and failed payments.
 */

let t: TTestApp;
let base: string;
let plansDir: string;
let receiver: Server;
let receiverUrl: string;
const bodies: { type: string; data: Record<string, unknown> }[] = [];

beforeAll(async () => {
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-webhook-events-'));
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(body) as (typeof bodies)[number]);
      response.end('ok');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(plansDir, { recursive: true, force: true });
});

describe('events from the gateway', () => {
  it('tells the endpoint owner by webhook when a circuit opens', async () => {
    const owner = await insertAccount(t.db, 'Circuit owner', 'free');
    const key = await insertKey(t.db, t.config.secret, owner.id);
    await createWebhook({ db: t.db, secret: t.config.secret, allowPrivate: true }, owner.id, {
      url: receiverUrl,
      events: ['endpoint.circuit_opened'],
    });
    const dead = await refusedUrl();
    const routeName = 'hooks/circuit';
    const endpoint = await insertEndpoint(t.db, t.config.secret, owner.id, {
      routeName,
      routeEndpoint: dead,
    });
    await t.db
      .update(aiEndpoints)
      .set({ routing: { upstreams: [{ url: dead, weight: 1 }], circuit: { failures: 1, cooldown_s: 600 } } })
      .where(eq(aiEndpoints.id, endpoint.id));

    const answer = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.raw}` },
      body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    await answer.arrayBuffer();
    expect(answer.status).toBe(502);

    await expect.poll(() => bodies.length, { timeout: 10_000 }).toBe(1);
    expect(bodies[0]).toMatchObject({
      type: 'endpoint.circuit_opened',
      data: {
        endpoint_id: endpoint.id,
        route_name: routeName,
        upstream_host: expect.stringMatching(/^127\.0\.0\.1:/),
        reason: 'connection',
      },
    });
  });
});

describe('events from billing', () => {
  it('sends invoice.paid for a paid plan and invoice.payment_failed for a refused renewal', async () => {
    const billed = await createTestApp();
    try {
      const owner = await newOwner(billed.app);
      await createWebhook(
        { db: billed.db, secret: billed.config.secret, allowPrivate: true },
        owner.accountId,
        {
          url: receiverUrl,
          events: ['invoice.paid', 'invoice.payment_failed'],
        },
      );
      bodies.length = 0;
      const token = await cardToken(billed.app, owner.headers, CARDS.ok);
      const res = await send(billed.app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token });
      expect(res.statusCode, res.body).toBe(200);
      await expect.poll(() => bodies.map((body) => body.type)).toEqual(['invoice.paid']);
      // A card whose later charges fail: the renewal is refused.
      const failing = await cardToken(billed.app, owner.headers, CARDS.laterFails);
      expect(
        (await send(billed.app, owner.headers, 'PATCH', '/api/account/card', { token: failing })).statusCode,
      ).toBe(200);
      await advance(billed.app, 32);
      await expect
        .poll(() => bodies.map((body) => body.type))
        .toEqual(['invoice.paid', 'invoice.payment_failed']);
      expect(bodies[1]!.data).toMatchObject({ attempt: 1, requires_action: false });
      expect(bodies[1]!.data.invoice_id).not.toBe(bodies[0]!.data.invoice_id);
    } finally {
      await billed.close();
    }
  });
});
