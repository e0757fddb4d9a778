import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startInstance, type TInstance } from './instances';

// The real server process on its own embedded database: one pass (vitest.config.ts).
describe('the server process on SIGTERM', () => {
  let instance: TInstance | undefined;
  let dir = '';
  afterEach(async () => {
    await instance?.kill9().catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('drains for SHUTDOWN_DELAY_MS (/healthz 503 draining), then exits 0', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'air-drain-'));
    instance = await startInstance({
      DATA_DIR: dir,
      LOG_LEVEL: 'info',
      INSTANCE_NAME: 'proc-1',
      SHUTDOWN_DELAY_MS: '4000',
      SHUTDOWN_TIMEOUT_MS: '5000',
    });
    const before = await fetch(`${instance.url}/healthz`);
    expect(before.status).toBe(200);
    expect(before.headers.get('x-air-instance')).toBe('proc-1');

    const exited = new Promise<number | null>((resolve) => instance!.process.once('exit', resolve));
    instance.process.kill('SIGTERM');
    let draining: Response | undefined;
    for (let i = 0; i < 50 && !draining; i++) {
      const response = await fetch(`${instance.url}/healthz`);
      if (response.status === 503) draining = response;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(draining?.status).toBe(503);
    expect(await draining!.json()).toEqual({ status: 'draining' });
    expect(await exited).toBe(0);
    expect(instance.output()).toContain('"msg":"draining: /healthz answers 503');
  }, 120_000);
});
