import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { groupAlive, killGroup, startAir, type TAirProcess } from './support/air-process';

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
