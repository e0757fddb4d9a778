import { configDefaults, defineConfig } from 'vitest/config';

// The server tests run twice in `npm test`: on the embedded database, then on a PostgreSQL server
// (AIR_TEST_DB=postgres). A few belong to one pass only, so they are left out of the other instead
// of being reported as skipped: two server processes on one database and production (which refuses
// the embedded database) need PostgreSQL; the embedded database's own tests (kill -9, its worker
// thread, a webhook queue across kill -9) need the embedded one, and the `npm start`, SIGTERM,
// start-up error and production CLI process tests start the server or the CLI on an embedded
// database of their own whatever the pass, so they run once, there.
const NEEDS_POSTGRES = [
  'test/gateway-instances.test.ts',
  'test/gateway-instances-spend.test.ts',
  'test/gateway-instances-tokens.test.ts',
  'test/migrate-lock.test.ts',
  'test/redis-outage.test.ts',
  'test/start-production.test.ts',
  'test/start-production-stdout.test.ts',
];
const NEEDS_EMBEDDED = [
  'test/embedded-database.test.ts',
  'test/gateway-kill-embedded.test.ts',
  'test/shutdown-process.test.ts',
  'test/start-process.test.ts',
  'test/start-errors.test.ts',
  'test/webhooks-kill.test.ts',
  'test/cli-production.test.ts',
];
const onPostgres = process.env.AIR_TEST_DB === 'postgres';

// One runner, four projects: pure shared logic, the server against a real database, the console in
// jsdom, and the docs checked against the code.
export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one worker (cores - 1), which leaves a core idle
    // while server tests wait on PostgreSQL, child processes and sockets.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(onPostgres ? NEEDS_EMBEDDED : NEEDS_POSTGRES)],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['./test/global-setup.ts'],
          // A worker runs its test files in one module context: the server's modules are imported
          // once per worker instead of once per file (2 s each), and the embedded databases of
          // test/support/embedded-pool.ts are reused by the next file. Every test builds its own
          // app and database state, so nothing else carries over. Embedded pass 330 s -> 86 s,
          // PostgreSQL pass 185 s -> 115 s.
          isolate: false,
        },
      },
      './apps/web/vitest.config.ts',
      {
        test: { name: 'docs', root: '.', include: ['scripts/**/*.test.ts'], environment: 'node' },
      },
    ],
  },
});
