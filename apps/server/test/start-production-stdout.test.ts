import { afterAll, describe, expect, inject, it } from 'vitest';
import { removeDataDirs, runServer } from './support/run-server';
import { createScratchDatabase } from './support/scratch-database';

/**
 * Issue 43 item 2: in production every stdout line is JSON, the start lines too. Production needs
 * PostgreSQL, so this file runs in the PostgreSQL pass (NEEDS_POSTGRES in vitest.config.ts).
 */
const info = inject('airTestDb');
afterAll(removeDataDirs);

describe('stdout in production (issue 43 item 2)', () => {
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
