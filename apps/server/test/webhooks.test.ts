import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundAgent } from '../src/lib/guarded-lookup';
import { webhooks } from '../src/db/schema';
import { encryptSecret } from '../src/lib/crypto';
import { listDeliveries } from '../src/modules/webhooks/service';
import { DeliveryWorker } from '../src/modules/webhooks/worker';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, type TActor } from './support/actors';

/*
 * Outbound webhooks (issue 42 item 4, contract 6e): registration, address rules, the signed
 * delivery (checked with the standardwebhooks package a receiver would use), the retry schedule
 * on a moved clock, order per webhook, and claims that never send one delivery twice at once.
 */

interface TReceived {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver on a port of its own; `status` is what it answers (0: not listening at all). */
async function startReceiver() {
  const received: TReceived[] = [];
  let status = 200;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      response.statusCode = status;
      response.end(status === 200 ? 'ok' : 'down');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (next: number) => (status = next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('webhooks', () => {
  let t: TTestApp;
  let admin: TActor;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let clock = Date.UTC(2026, 0, 10, 12, 0, 0);

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    t.app.webhooks.worker.now = () => clock;
    admin = await createActor(t.app, { role: 'admin' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const as = (actor: TActor) => bearer(actor.token);
  const create = (actor: TActor, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/webhook', headers: as(actor), payload });

  it('registers a webhook, shows its secret once, lists, edits and deletes it', async () => {
    const created = await create(admin, { url: receiver.url, events: ['key.created'] });
    expect(created.statusCode).toBe(201);
    const hook = created.json().data;
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(hook.events).toEqual(['key.created']);

    const list = await t.app.inject({ url: '/api/webhook', headers: as(admin) });
    expect(list.json().data).toEqual([
      { id: hook.id, url: receiver.url, events: ['key.created'], active: true, created_at: hook.created_at },
    ]);
    expect(list.body).not.toContain('whsec_');

    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/webhook/${hook.id}`,
      headers: as(admin),
      payload: { events: ['key.created', 'key.revoked'], active: false },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ events: ['key.created', 'key.revoked'], active: false });

    // Another account's admin sees nothing of it.
    const stranger = await createActor(t.app, { role: 'admin' });
    for (const request of [
      { method: 'PATCH' as const, url: `/api/webhook/${hook.id}`, payload: { active: true } },
      { method: 'DELETE' as const, url: `/api/webhook/${hook.id}` },
      { method: 'POST' as const, url: `/api/webhook/${hook.id}/test` },
      { method: 'GET' as const, url: `/api/webhook/${hook.id}/deliveries` },
    ])
      expect((await t.app.inject({ ...request, headers: as(stranger) })).statusCode).toBe(404);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/webhook/${hook.id}`,
      headers: as(admin),
    });
    expect(deleted.json().data).toEqual({ deleted: 1 });
    expect((await t.app.inject({ url: '/api/webhook', headers: as(admin) })).json().data).toEqual([]);
  });

  it('refuses bad input with 400 on the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'ftp://example.com/x', events: ['key.created'] }, 'url'],
      [{ url: 'https://user:pw@example.com/x', events: ['key.created'] }, 'url'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url, events: ['key.exploded'] }, 'events'],
      [{ url: receiver.url, events: ['key.created', 'key.created'] }, 'events'],
      [{ url: receiver.url }, 'events'],
      [{ url: receiver.url, events: ['key.created'], secret: 'mine' }, 'secret'],
    ];
    for (const [payload, field] of cases) {
      const response = await create(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().inputError, JSON.stringify(payload)).toMatch(new RegExp(`^${field}(\\.|$)`));
    }
  });

  it('takes plain HTTP only to a local address, and only where private addresses are allowed', async () => {
    const strict = await createTestApp({ upstreamAllowPrivate: false });
    try {
      const owner = await createActor(strict.app);
      const post = (url: string) =>
        strict.app.inject({
          method: 'POST',
          url: '/api/webhook',
          headers: bearer(owner.token),
          payload: { url, events: ['key.created'] },
        });
      for (const url of [
        'http://127.0.0.1:9/hook',
        'https://127.0.0.1/hook',
        'https://10.1.2.3/hook',
        'http://93.184.215.14/hook',
      ]) {
        const response = await post(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json().inputError, url).toBe('url');
      }
      expect((await post('https://93.184.215.14/hook')).statusCode).toBe(201);
      // A private literal saved before the rule applied (here: written directly) is never called.
      receiver.received.length = 0;
      const [hook] = await strict.db
        .insert(webhooks)
        .values({
          accountId: owner.accountId,
          url: receiver.url,
          events: ['key.created'],
          secretEnc: encryptSecret(strict.config.secret, 'whsec_AAAA'),
        })
        .returning();
      await strict.app.webhooks.emit(owner.accountId, 'key.created', { key_id: 'k' });
      await strict.app.webhooks.worker.run();
      const [delivery] = (await listDeliveries(strict.db, owner.accountId, hook!.id, { limit: 1 })).items;
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, error: 'EAI_PRIVATE' });
      expect(receiver.received).toHaveLength(0);
    } finally {
      await strict.close();
    }
    // Private addresses allowed (this app): plain HTTP to a public one is still refused.
    const response = await create(admin, { url: 'http://93.184.215.14/hook', events: ['key.created'] });
    expect(response.statusCode).toBe(400);
    expect(response.json().inputError).toBe('url');
  });

  it('signs each delivery per Standard Webhooks, retries on the schedule, and keeps order per webhook', async () => {
    receiver.received.length = 0;
    const hook = (await create(admin, { url: receiver.url, events: ['key.created', 'key.revoked'] })).json()
      .data;
    const verifier = new Webhook(hook.secret.slice('whsec_'.length));

    // The receiver fails: the first event is tried once and waits 5 s; the second waits behind it.
    receiver.answer(503);
    await t.app.webhooks.emit(admin.accountId, 'key.created', { key_id: 'k1' });
    await t.app.webhooks.emit(admin.accountId, 'key.revoked', { key_id: 'k1' });
    await t.app.webhooks.worker.run();
    expect(receiver.received).toHaveLength(1);
    const log = async () =>
      (await t.app.inject({ url: `/api/webhook/${hook.id}/deliveries`, headers: as(admin) })).json().data
        .items;
    const [second, first] = await log();
    expect(first).toMatchObject({
      event: 'key.created',
      status: 'pending',
      attempts: 1,
      response_status: 503,
    });
    expect(second).toMatchObject({ event: 'key.revoked', status: 'pending', attempts: 0 });
    expect(Date.parse(first.next_attempt_at) - clock).toBe(5_000);

    // 4.9 s later nothing is due; at 5 s it is tried again, fails, and waits 30 s.
    clock += 4_900;
    await t.app.webhooks.worker.run();
    expect(receiver.received).toHaveLength(1);
    clock += 100;
    await t.app.webhooks.worker.run();
    expect(receiver.received).toHaveLength(2);
    expect(Date.parse((await log())[1].next_attempt_at) - clock).toBe(30_000);

    // Up again: 30 s later both go, in order, each signed.
    receiver.answer(200);
    clock += 30_000;
    await t.app.webhooks.worker.run();
    const delivered = receiver.received.slice(2);
    expect(delivered.map((entry) => JSON.parse(entry.body).type)).toEqual(['key.created', 'key.revoked']);
    for (const entry of receiver.received) {
      const headers = {
        'webhook-id': String(entry.headers['webhook-id']),
        'webhook-timestamp': String(entry.headers['webhook-timestamp']),
        'webhook-signature': String(entry.headers['webhook-signature']),
      };
      // The library checks the timestamp against its own clock: verify at the attempt's time.
      const body = JSON.parse(entry.body);
      expect(body).toMatchObject({ data: { key_id: 'k1' } });
      expect(typeof body.timestamp).toBe('string');
      const at = Number(headers['webhook-timestamp']) * 1000;
      const realNow = Date.now;
      Date.now = () => at;
      try {
        expect(verifier.verify(entry.body, headers)).toEqual(body);
        expect(() => verifier.verify(entry.body.replace('k1', 'k2'), headers)).toThrow();
      } finally {
        Date.now = realNow;
      }
    }
    // The same webhook-id on the retries of one event, another on the next event.
    const ids = receiver.received.map((entry) => entry.headers['webhook-id']);
    expect(new Set(ids).size).toBe(2);
    expect((await log()).map((entry: { status: string }) => entry.status)).toEqual([
      'delivered',
      'delivered',
    ]);
  });

  it('gives a delivery up once 24 hours have passed, after the whole schedule', async () => {
    receiver.received.length = 0;
    receiver.answer(500);
    const hook = (await create(admin, { url: receiver.url, events: ['invoice.paid'] })).json().data;
    const start = clock;
    await t.app.webhooks.emit(admin.accountId, 'invoice.paid', { invoice_id: 'i1' });
    const gaps: number[] = [];
    let previous = clock;
    for (let step = 0; step < 20; step++) {
      await t.app.webhooks.worker.run();
      const [entry] = (
        await t.app.inject({ url: `/api/webhook/${hook.id}/deliveries`, headers: as(admin) })
      ).json().data.items;
      if (entry.status !== 'pending') break;
      const next = Date.parse(entry.next_attempt_at);
      gaps.push(next - previous);
      previous = next;
      clock = next;
    }
    expect(gaps).toEqual([5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000, 21_600_000, 21_600_000]);
    const [last] = (
      await t.app.inject({ url: `/api/webhook/${hook.id}/deliveries`, headers: as(admin) })
    ).json().data.items;
    expect(last).toMatchObject({ status: 'failed', attempts: 9, next_attempt_at: null });
    expect(clock - start).toBeLessThanOrEqual(24 * 3_600_000);
    receiver.answer(200);
  });

  it('sends the test event from the button, and a key created or revoked in the console', async () => {
    receiver.received.length = 0;
    const owner = await createActor(t.app);
    const hook = (await create(owner, { url: receiver.url, events: ['key.created', 'key.revoked'] })).json()
      .data;
    const test = await t.app.inject({
      method: 'POST',
      url: `/api/webhook/${hook.id}/test`,
      headers: as(owner),
    });
    expect(test.statusCode).toBe(200);
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/key',
      headers: as(owner),
      payload: { name: 'hooked', scope: ['gateway.invoke'] },
    });
    expect(key.statusCode, key.body).toBe(201);
    const keyId = key.json().data.id;
    await t.app.inject({
      method: 'PATCH',
      url: `/api/key/${keyId}`,
      headers: as(owner),
      payload: { active: false },
    });
    await expect.poll(() => receiver.received.length).toBe(3);
    const bodies = receiver.received.map((entry) => JSON.parse(entry.body));
    expect(bodies.map((body) => body.type)).toEqual(['webhook.test', 'key.created', 'key.revoked']);
    expect(bodies[1].data).toMatchObject({ key_id: keyId, name: 'hooked' });
    expect(bodies[2].data).toMatchObject({ key_id: keyId });
  });

  it('never sends one delivery twice when two workers claim at once', async () => {
    receiver.received.length = 0;
    const owner = await createActor(t.app);
    await create(owner, { url: `${receiver.url}?to=a`, events: ['limit.reached'] });
    await create(owner, { url: `${receiver.url}?to=b`, events: ['limit.reached'] });
    // Queued (which wakes the app's worker), then drained by it and a second one racing it.
    for (let n = 0; n < 10; n++) await t.app.webhooks.emit(owner.accountId, 'limit.reached', { n });
    const agent = outboundAgent(true);
    const rival = new DeliveryWorker({
      db: t.db,
      secret: t.config.secret,
      agent,
      allowPrivate: true,
      log: t.app.log,
      now: () => clock,
    });
    await Promise.all([t.app.webhooks.worker.run(), rival.run()]);
    await expect.poll(() => receiver.received.length).toBe(20);
    await rival.close();
    await agent.close();
    const ids = receiver.received.map((entry) => String(entry.headers['webhook-id']));
    expect(new Set(ids).size).toBe(20);
    // Each receiver got the account's events once, in the order they happened.
    for (const to of ['/hook?to=a', '/hook?to=b'])
      expect(
        receiver.received.filter((entry) => entry.url === to).map((entry) => JSON.parse(entry.body).data.n),
      ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
