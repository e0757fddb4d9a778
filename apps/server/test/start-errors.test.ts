import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from './support/air-process';
import { freePort } from './instances';
import { createScratchDatabase } from './support/scratch-database';

/**
 * Issue 43 item 4: a start that cannot go on says which variable to fix, in one line, before
 * migrations run (the server from its sources, as the compiled one runs the same code).
 */

const SERVER = path.join(REPO_ROOT, 'apps/server/src/server.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'air-start-errors-'));
  dirs.push(dir);
  return dir;
}

interface TRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

/**
 * Runs the server with `env` until it exits, or until its output matches `until` (then stops it).
 */
function runServer(env: Record<string, string>, until?: RegExp): Promise<TRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: '0',
      DATA_DIR: dataDir(),
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      TRUST_PROXY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const check = () => {
    if (until?.test(stdout + stderr)) child.kill('SIGKILL');
  };
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    check();
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    check();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    }),
  );
}

describe('start-up errors name their variable', () => {
  it('TRUST_PROXY=nonsense: one line naming it, nothing opened', async () => {
    const run = await runServer({ TRUST_PROXY: 'nonsense' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      'TRUST_PROXY: must be true, false, a hop count or a list of addresses or ranges',
    ]);
  }, 120_000);

  it('an unreachable DATABASE_URL: one line naming it, without its password, before migrations', async () => {
    const port = await freePort();
    const run = await runServer({ DATABASE_URL: `postgres://air:secret-pw@127.0.0.1:${port}/air` });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^DATABASE_URL: cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}/air \\(.*ECONNREFUSED.*\\)$`,
      ),
    );
    expect(run.stderr).not.toContain('secret-pw');
  }, 120_000);

  it('a PORT in use: one line naming it', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      const run = await runServer({ PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([`PORT: ${port} is already in use on 127.0.0.1`]);
    } finally {
      taken.close();
    }
  }, 120_000);

  it('an unreachable REDIS_URL: one line naming it at start-up, and the server still starts', async () => {
    const port = await freePort();
    const run = await runServer({ REDIS_URL: `redis://:secret-pw@127.0.0.1:${port}` }, /AIR is running at/);
    const redisLines = run.stderr.split('\n').filter((line) => line.startsWith('REDIS_URL: '));
    expect(redisLines).toEqual([
      `REDIS_URL: cannot reach Redis at 127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port}); starting anyway, counting quotas and rate limits on this instance until it answers`,
    ]);
    // Said before anything else, then the server runs.
    expect(run.stderr.indexOf('REDIS_URL: ')).toBe(0);
    expect(run.stdout).toMatch(/AIR is running at/);
    expect(run.stdout + run.stderr).not.toContain('secret-pw');
  }, 120_000);
});

const info = inject('airTestDb');

// Production needs PostgreSQL: this runs in the PostgreSQL pass.
describe.runIf(info.kind === 'postgres')('stdout in production (issue 43 item 2)', () => {
  it('is JSON, line by line, the start lines too', async () => {
    const database = await createScratchDatabase(info.kind === 'postgres' ? info.url : '', 'air_json');
    try {
      const run = await runServer(
        {
          NODE_ENV: 'production',
          DATABASE_URL: database.url,
          SECRET: 'production-test-secret-at-least-32-chars',
        },
        /AIR is running at/,
      );
      const lines = run.stdout.trim().split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages.some((msg) => /^Applied \d+ database migrations?$/.test(msg))).toBe(true);
      expect(messages.some((msg) => msg.startsWith('AIR is running at '))).toBe(true);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
