import { createServer } from 'node:net';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './instances';
import { removeDataDirs, runServer } from './support/run-server';

/**
 * Issue 43 item 4: a start that cannot go on says which variable to fix, in one line, before
 * migrations run (the server from its sources, as the compiled one runs the same code).
 */

afterAll(removeDataDirs);

describe('start-up errors name their variable', () => {
  it('TRUST_PROXY=nonsense and a bad OTEL_EXPORTER_OTLP_ENDPOINT: one line naming each, nothing opened', async () => {
    const run = await runServer({ TRUST_PROXY: 'nonsense', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      'TRUST_PROXY: must be true, false, a hop count or a list of addresses or ranges',
      'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL',
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
