import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `@air/shared` is a workspace link to the original folder, which Stryker's sandbox copy does not
// replace: resolved here to the sandbox's own sources, so a mutant of the shared package reaches
// the server tests too.
const shared = path.resolve(import.meta.dirname, 'packages/shared/src');
const resolve = {
  alias: [
    { find: /^@air\/shared$/, replacement: `${shared}/index.ts` },
    { find: /^@air\/shared\/(.*)$/, replacement: `${shared}/$1.ts` },
  ],
};

// The tests `npm run mutate` runs against each mutant: the ones that exercise money, limits and
// access (a whole server pass is too slow to repeat per mutant on two cores). Embedded database;
// tests that start server processes are left out (a mutant lives in the test's own process).
const SHARED_TESTS = ['src/permissions.test.ts', 'src/route-guard.test.ts', 'src/**/price*.test.ts'];
const SERVER_TESTS = [
  'src/**/*.test.ts',
  'test/gateway.test.ts',
  'test/gateway-routing.test.ts',
  'test/gateway-fast-lane.test.ts',
  'test/gateway-stream-billing.test.ts',
  'test/gateway-circuits.test.ts',
  'test/gateway-limits.test.ts',
  'test/gateway-refusal-log.test.ts',
  'test/gateway-final-refusals.test.ts',
  'test/marketplace-spend-limit.test.ts',
  'test/marketplace-spend-reservation.test.ts',
  'test/marketplace-pricing.test.ts',
  'test/marketplace-billing.test.ts',
  'test/marketplace-money.test.ts',
  'test/money.test.ts',
  'test/console-role-table.test.ts',
  'test/keys.test.ts',
  'test/usage.test.ts',
  'test/identity-auth.test.ts',
];

// MUTATE_TESTS narrows the run to the test files that reach the mutated file (comma-separated,
// from the repository root), so one file's run takes minutes instead of an hour, e.g.
// MUTATE_TESTS=apps/server/src/gateway/circuit.test.ts npm run mutate -- --mutate 'apps/server/src/gateway/circuit*.ts'
const only = process.env.MUTATE_TESTS?.split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
function under(prefix: string, all: string[]): string[] {
  if (!only) return all;
  return only.filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length));
}
const sharedTests = under('packages/shared/', SHARED_TESTS);
const serverTests = under('apps/server/', SERVER_TESTS);

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      ...(sharedTests.length === 0
        ? []
        : [
            {
              resolve,
              test: { name: 'shared', root: './packages/shared', include: sharedTests, environment: 'node' },
            },
          ]),
      ...(serverTests.length === 0
        ? []
        : [
            {
              resolve,
              test: {
                name: 'server',
                root: './apps/server',
                include: serverTests,
                environment: 'node',
                testTimeout: 30_000,
                hookTimeout: 60_000,
                globalSetup: ['./test/global-setup.ts'],
                isolate: false,
              },
            },
          ]),
    ],
  },
});
