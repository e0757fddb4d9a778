import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';

interface TReceived {
  to: string[];
  raw: string;
}

async function startSmtp(
  options: { busyConnections?: number; refuseRecipients?: boolean } = {},
): Promise<{ server: SMTPServer; port: number; received: TReceived[]; connections: () => number }> {
  const received: TReceived[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onConnect(_session, callback) {
      connections += 1;
      if (connections > (options.busyConnections ?? 0)) return callback();
      // A server that is busy for now (421, a passing refusal).
      callback(Object.assign(new Error('busy, try later'), { responseCode: 421 }));
    },
    onRcptTo(_address, _session, callback) {
      if (!options.refuseRecipients) return callback();
      callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { server, port, received, connections: () => connections };
}

let t: TTestApp | undefined;
let smtp: SMTPServer | undefined;
afterEach(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  t = undefined;
  smtp = undefined;
});

describe('mail delivery', () => {
  it('delivers over SMTP (HTML and text parts) to a real SMTP server on loopback', async () => {
    const started = await startSmtp();
    smtp = started.server;
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${started.port}`, appUrl: 'http://air.test' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account',
      payload: { name: 'Sam', email: 'sam@x.io', password: 'Correct-horse-1' },
    });
    expect(res.statusCode).toBe(201);
    expect(t.app.mailer.transport).toBe('smtp');
    expect(started.received).toHaveLength(1);
    const [mail] = started.received;
    expect(mail!.to).toEqual(['sam@x.io']);
    expect(mail!.raw).toMatch(/Subject: Verify your email address/);
    expect(mail!.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/);
    expect(mail!.raw.replace(/=\r?\n/g, '')).toContain('http://air.test/signup/verify?token=3D');
    // Delivered mail keeps no copy of its links, and there is no outbox to read.
    expect(await t.db.select().from(mailOutbox)).toHaveLength(0);
    expect((await t.app.inject({ url: '/dev/mail.json' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/dev/mail' })).statusCode).toBe(404);
  });

  it('tries a busy SMTP server again (421), on a new connection, and the mail arrives', async () => {
    const started = await startSmtp({ busyConnections: 2 });
    smtp = started.server;
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${started.port}`, appUrl: 'http://air.test' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account',
      payload: { name: 'Bo', email: 'bo@x.io', password: 'Correct-horse-1' },
    });
    expect(res.statusCode).toBe(201);
    // Refused twice, delivered on the third attempt (after SMTP_RETRY_MS: 1 s, then 3 s).
    expect(started.connections()).toBe(3);
    expect(started.received).toHaveLength(1);
    expect(started.received[0]!.to).toEqual(['bo@x.io']);
  });

  it('does not send again a mail the server refused for good (550): one attempt, logged', async () => {
    const started = await startSmtp({ refuseRecipients: true });
    smtp = started.server;
    t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${started.port}`, appUrl: 'http://air.test' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account',
      payload: { name: 'Cy', email: 'cy@x.io', password: 'Correct-horse-1' },
    });
    // The sign-up stands (the user can ask for a new mail); the refused mail is not tried again.
    expect(res.statusCode).toBe(201);
    expect(started.connections()).toBe(1);
    expect(started.received).toHaveLength(0);
  });

  it('without SMTP stores mail in the outbox, listed at /dev/mail (HTML, clickable) and /dev/mail.json', async () => {
    t = await createTestApp({ appUrl: 'http://air.test' });
    await t.app.inject({
      method: 'POST',
      url: '/api/account',
      payload: { name: 'Dee', email: 'dee@x.io', password: 'Correct-horse-1' },
    });
    const json = await t.app.inject({ url: '/dev/mail.json' });
    expect(json.statusCode).toBe(200);
    const [mail] = json.json().data;
    expect(mail).toMatchObject({ to: 'dee@x.io', template: 'verify' });
    expect(mail.links[0]).toMatch(/^http:\/\/air\.test\/signup\/verify\?token=/);
    const html = await t.app.inject({ url: '/dev/mail' });
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.body).toContain(`<a href="${mail.links[0]}">`);
  });

  it('refuses the outbox to a caller that is not on loopback, whatever X-Forwarded-For says', async () => {
    t = await createTestApp({ trustProxy: true });
    for (const url of ['/dev/mail.json', '/dev/mail']) {
      const remote = await t.app.inject({ url, remoteAddress: '203.0.113.7' });
      expect(remote.statusCode).toBe(404);
      expect(remote.body).not.toContain('Dev outbox');
      const spoofed = await t.app.inject({
        url,
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(spoofed.statusCode).toBe(404);
      expect((await t.app.inject({ url, remoteAddress: '::1' })).statusCode).toBe(200);
    }
  });

  it('purges outbox rows older than 24 hours', async () => {
    t = await createTestApp();
    await t.db.insert(mailOutbox).values({
      to: 'old@x.io',
      subject: 'old',
      html: '',
      text: '',
      template: 'verify',
      links: ['http://x/old?token=1'],
      createdAt: new Date(Date.now() - 25 * 3_600_000),
    });
    await t.app.mailer.send({
      to: 'new@x.io',
      locale: 'en',
      template: 'magic',
      params: { name: 'N', url: 'http://x/m' },
    });
    const rows = await t.db.select().from(mailOutbox);
    expect(rows.map((row) => row.to)).toEqual(['new@x.io']);
  });

  it('never lists an outbox row past 24 hours: reading the outbox purges it too', async () => {
    t = await createTestApp();
    await t.db.insert(mailOutbox).values({
      to: 'stale@x.io',
      subject: 'stale',
      html: '',
      text: '',
      template: 'verify',
      links: ['http://x/stale?token=1'],
      createdAt: new Date(Date.now() - 25 * 3_600_000),
    });
    const listed = await t.app.inject({ url: '/dev/mail.json', remoteAddress: '127.0.0.1' });
    expect(listed.statusCode).toBe(200);
    expect(JSON.stringify(listed.json())).not.toContain('stale@x.io');
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'stale@x.io'))).toEqual([]);
  });

  it('in production without SMTP a warning says mail is not configured and no link reaches the log', async () => {
    const lines: string[] = [];
    t = await createTestApp(
      { isProduction: true, nodeEnv: 'production', logLevel: 'info', appUrl: 'http://air.test' },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
    await t.app.mailer.send({
      to: 'p@x.io',
      locale: 'en',
      template: 'magic',
      params: { name: 'P', url: 'http://air.test/magic?token=secret-link-token' },
    });
    const log = lines.join('');
    expect(log).not.toContain('secret-link-token');
    const warning = lines.map((line) => JSON.parse(line)).find((entry) => /not configured/.test(entry.msg));
    expect(warning).toMatchObject({ level: 40 });
  });

  it('production has no /dev/mail', async () => {
    t = await createTestApp({ isProduction: true, nodeEnv: 'production' });
    expect((await t.app.inject({ url: '/dev/mail.json' })).statusCode).not.toBe(200);
    expect((await t.app.inject({ url: '/dev/mail' })).body).not.toContain('Dev outbox');
  });
});
