import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { TDb } from '../src/db/client';
import * as schema from '../src/db/schema';
import { encryptSecret } from '../src/lib/crypto';
import { enqueueEvent } from '../src/modules/webhooks/service';
import { newWebhookSecret } from '../src/modules/webhooks/signing';
import { insertAccount } from './gateway-fixtures';
import { freePort, startInstance, type TInstance } from './instances';

const SECRET = 'test-secret-that-is-at-least-32-characters-long';

/** The instance's own embedded database, opened while no server holds it. */
async function openDb(dir: string, dumpFile?: string) {
  const client = await PGlite.create({
    dataDir: path.join(dir, 'db'),
    ...(dumpFile ? { loadDataDir: new Blob([readFileSync(dumpFile)]) } : {}),
  });
  const db: TDb = drizzle(client, { schema });
  return { client, db };
}

/*
 * Issue 42 item 4: the queue is durable. A receiver that is down while the server tries, a
 * `kill -9` of the server, events queued while it is dead, then the receiver up and the server
 * restarted: every event arrives once, in the order it happened, signed.
 */
describe('webhook deliveries across kill -9', () => {
  let dir = '';
  let instance: TInstance | undefined;
  let receiver: Server | undefined;

  afterAll(async () => {
    await instance?.stop();
    if (receiver) await new Promise((resolve) => receiver!.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('delivers every event once, in order, after the receiver was down and the server killed', async () => {
    const info = inject('airTestDb');
    if (info.kind !== 'pglite') throw new Error('needs the embedded test database');
    dir = mkdtempSync(path.join(os.tmpdir(), 'air-webhook-kill-'));
    const port = await freePort();
    const secret = newWebhookSecret();

    let { client, db } = await openDb(dir, info.dumpFile);
    const account = await insertAccount(db, 'Hooked', null);
    const [hook] = await db
      .insert(schema.webhooks)
      .values({
        accountId: account.id,
        url: `http://127.0.0.1:${port}/hook`,
        events: ['key.created'],
        secretEnc: encryptSecret(SECRET, secret),
      })
      .returning();
    for (let n = 0; n < 3; n++) await enqueueEvent(db, account.id, 'key.created', { n }, Date.now());
    await client.close();

    // The receiver is down (answers 503): the server tries the first event, fails, and waits 5 s.
    let up = false;
    const received: { headers: Record<string, string>; body: string }[] = [];
    let failed = 0;
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (!up) {
          failed++;
          response.statusCode = 503;
          response.end('down');
          return;
        }
        received.push({
          headers: {
            'webhook-id': String(request.headers['webhook-id']),
            'webhook-timestamp': String(request.headers['webhook-timestamp']),
            'webhook-signature': String(request.headers['webhook-signature']),
          },
          body,
        });
        response.end('ok');
      });
    });
    receiver.listen(port, '127.0.0.1');
    await once(receiver, 'listening');
    const env = { DATA_DIR: dir, SECRET };
    instance = await startInstance(env);
    await expect.poll(() => failed, { timeout: 60_000, interval: 100 }).toBe(1);
    // Its outcome is written just after the answer: a moment, then the kill.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await instance.kill9();

    // While the server is dead, two more events are queued.
    ({ client, db } = await openDb(dir));
    const tried = await db
      .select({ attempts: schema.webhookDeliveries.attempts })
      .from(schema.webhookDeliveries)
      .orderBy(asc(schema.webhookDeliveries.seq));
    expect(tried.map((row) => row.attempts)).toEqual([1, 0, 0]);
    for (let n = 3; n < 5; n++) await enqueueEvent(db, account.id, 'key.created', { n }, Date.now());
    await client.close();

    // The receiver comes up, then the server.
    up = true;
    instance = await startInstance(env);
    await expect.poll(() => received.length, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(5);
    // A moment more: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await instance.stop();

    expect(received.map((entry) => JSON.parse(entry.body).data.n)).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(received.map((entry) => entry.headers['webhook-id'])).size).toBe(5);
    const verifier = new Webhook(secret.slice('whsec_'.length));
    for (const entry of received)
      expect(verifier.verify(entry.body, entry.headers)).toMatchObject({ type: 'key.created' });

    ({ client, db } = await openDb(dir));
    const rows = await db
      .select({ status: schema.webhookDeliveries.status, attempts: schema.webhookDeliveries.attempts })
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.webhookId, hook!.id))
      .orderBy(asc(schema.webhookDeliveries.seq));
    await client.close();
    expect(rows.map((row) => row.status)).toEqual(Array(5).fill('delivered'));
    expect(rows[0]!.attempts).toBe(2);
  }, 240_000);
});
