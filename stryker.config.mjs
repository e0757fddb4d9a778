// `npm run mutate`: StrykerJS over the code where a missed bug costs money or opens access
// (issue 37, decision 041). Not part of `npm test`: a full run takes long on two cores. Narrow it
// with `npm run mutate -- --mutate apps/server/src/gateway/spend.ts`, and the tests run against
// each mutant with MUTATE_TESTS (stryker.vitest.config.ts), e.g. for the circuits in minutes:
//   MUTATE_TESTS=apps/server/src/gateway/circuit.test.ts npm run mutate -- --concurrency 1 \
//     --mutate 'apps/server/src/gateway/circuit*.ts,!**/*.test.ts'
// (`--mutate` replaces the list below, its `!**/*.test.ts` too.) Results are kept in
// reports/mutation/ (incremental: a re-run tests only what changed).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'stryker.vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    // Gateway: who may call (authentication, route rules), admission, limits, spend reservation,
    // circuits.
    'apps/server/src/core/authenticate.ts',
    'apps/server/src/core/credentials.ts',
    'apps/server/src/gateway/call-outcome.ts',
    'apps/server/src/gateway/spend.ts',
    'apps/server/src/gateway/spend-reservation.ts',
    'apps/server/src/gateway/limits.ts',
    'apps/server/src/gateway/local-counters.ts',
    'apps/server/src/gateway/circuit*.ts',
    'apps/server/src/gateway/tokens.ts',
    'apps/server/src/gateway/month-seeds.ts',
    'apps/server/src/gateway/seed-corrections.ts',
    // Money: prices, costs, rounding, settlement, the fee; metering and the renewal's charges.
    'packages/shared/src/schemas/price.ts',
    'apps/server/src/modules/money/*.ts',
    'apps/server/src/modules/usage/metering.ts',
    'apps/server/src/modules/billing/marketplace-charges.ts',
    // Identity: keys and who may do what.
    'apps/server/src/modules/keys/service.ts',
    'packages/shared/src/permissions.ts',
    '!**/*.test.ts',
  ],
  ignorePatterns: [
    'data',
    '.data-test',
    'test-results',
    'playwright-report',
    'reports',
    'apps/web/dist',
    'apps/server/dist',
    'e2e',
    '.stryker-tmp',
  ],
  concurrency: 2,
  timeoutMS: 30_000,
  dryRunTimeoutMinutes: 30,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
