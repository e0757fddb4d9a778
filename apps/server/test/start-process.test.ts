import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { groupAlive, killGroup, startAir, type TAirProcess } from './support/air-process';
import { ensureBuilt, runStartToEnd } from './support/build';
import { groupProcesses, threadsOf } from './support/threads';

let air: TAirProcess | undefined;
afterAll(() => air && killGroup(air.child));

it('`npm start` serves, logs no line per request, and stops whole within 5 s of SIGTERM to npm', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-start-'));
  air = await startAir('npm start', { DATA_DIR: dataDir });
  expect(air.output()).toContain(`mail to the dev outbox at ${air.url}/dev/mail`);

  const health = await fetch(`${air.url}/healthz`);
  expect(health.status).toBe(200);
  expect((await fetch(`${air.url}/api/nothing-here`)).status).toBe(404);
  // At the default level (info) a request leaves no log line.
  expect(air.output()).not.toMatch(/incoming request|request completed|not found/);

  // The server's embedded database thread runs ten nice steps below everything else; libuv's thread
  // pool (started by whichever thread needs it first) keeps the event loop's priority.
  const own = os.getPriority();
  const threads = groupProcesses(air.child.pid!).flatMap((pid) => threadsOf(pid));
  expect(threads.filter((thread) => thread.nice !== own)).toEqual([
    expect.objectContaining({ nice: Math.min(19, own + 10) }),
  ]);
  expect(threads.filter((thread) => thread.name === 'libuv-worker').length).toBeGreaterThan(0);

  // The signal goes to npm itself, as `kill <pid of npm start>` does.
  process.kill(air.child.pid!, 'SIGTERM');
  const code = await Promise.race([
    air.exited,
    new Promise((resolve) => setTimeout(() => resolve('still running after 5 s'), 5_000)),
  ]);
  expect(code).toBe(0);
  // Nothing of it is left: not npm, not the server, not a shell between them.
  for (let i = 0; i < 20 && groupAlive(air.child); i++) await new Promise((r) => setTimeout(r, 100));
  expect(groupAlive(air.child)).toBe(false);
  expect(air.output()).toContain('"signal":"SIGTERM","msg":"shutting down"');
  expect(air.output().match(/dev outbox at/g)).toHaveLength(1);
}, 180_000);

it('Ctrl-C on `npm start` (SIGINT to the whole group, npm forwarding its copy) is one graceful stop', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-ctrl-c-'));
  const ctrlC = await startAir('npm start', { DATA_DIR: dataDir });
  try {
    expect((await fetch(`${ctrlC.url}/healthz`)).status).toBe(200);
    // What a terminal does on Ctrl-C: the signal to every process of the foreground group.
    process.kill(-ctrlC.child.pid!, 'SIGINT');
    const code = await Promise.race([
      ctrlC.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running after 5 s'), 5_000)),
    ]);
    for (let i = 0; i < 20 && groupAlive(ctrlC.child); i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive(ctrlC.child)).toBe(false);
    expect(ctrlC.output()).toContain('"signal":"SIGINT","msg":"shutting down"');
    expect(ctrlC.output()).not.toContain('second SIGINT');
    expect(code).toBe(0);
  } finally {
    killGroup(ctrlC.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);

it('with NODE_ENV=production, start refuses without DATABASE_URL or SECRET: one line each, nothing opened', async () => {
  await ensureBuilt();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-refuse-'));
  const production = {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: '',
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
  };

  const neither = await runStartToEnd({ ...production, SECRET: '' });
  expect(neither.code).toBe(1);
  expect(neither.stdout).toBe('');
  expect(neither.stderr.trim().split('\n')).toEqual([
    'SECRET: is required when NODE_ENV=production',
    'DATABASE_URL: is required when NODE_ENV=production (the embedded database serves one process)',
  ]);

  const noDatabase = await runStartToEnd({ ...production, SECRET: 'production-secret-of-at-least-32-chars' });
  expect(noDatabase.code).toBe(1);
  expect(noDatabase.stdout).toBe('');
  expect(noDatabase.stderr.trim().split('\n')).toEqual([
    'DATABASE_URL: is required when NODE_ENV=production (the embedded database serves one process)',
  ]);
  // No embedded database was created, no secret file written.
  expect(readdirSync(dataDir)).toEqual([]);
  rmSync(dataDir, { recursive: true, force: true });
}, 180_000);
