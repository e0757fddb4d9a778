import { defineConfig } from '@playwright/test';
import { E2E_BASE_URL, E2E_PORT } from './support/env';

export default defineConfig({
  testDir: '.',
  // Spec files are shared out between two workers (tests within a file keep their order): one
  // server, every test with its own users, so files do not depend on each other. Except the specs
  // that move the server's one billing clock a month on (billing, the marketplace's renewal), which
  // would renew the paid plans of tests running beside them: each runs alone once the others are done.
  fullyParallel: false,
  workers: 2,
  projects: [
    {
      name: 'ui',
      testMatch: ['ui/**/*.spec.ts'],
      testIgnore: ['ui/billing.spec.ts', 'ui/marketplace.spec.ts', 'ui/payouts.spec.ts'],
    },
    { name: 'billing', testMatch: ['ui/billing.spec.ts'], dependencies: ['ui'] },
    { name: 'marketplace', testMatch: ['ui/marketplace.spec.ts'], dependencies: ['billing'] },
    // Moves the clock into the next month (a payout run's close).
    { name: 'payouts', testMatch: ['ui/payouts.spec.ts'], dependencies: ['marketplace'] },
    // Last: the server's log of everything above holds no error (issue 7).
    { name: 'audit', testMatch: ['audit/**/*.spec.ts'], dependencies: ['payouts'] },
  ],
  retries: 0,
  // Two browsers share two cores with the server: a test that walks many focus stops takes twice
  // as long as alone.
  timeout: 60_000,
  // 15 s: on a slow day of this machine (every part of the suite 1.6-2.2x slower than the day
  // before) a page's first data came 8.4 s after navigation, its requests in a waterfall
  // (/api/auth, then /api/account/usage, then the page's own list; stop 32's note).
  expect: { timeout: 15_000 },
  outputDir: '../test-results/playwright',
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless=new',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
      ],
    },
  },
  webServer: {
    // The real server on its own port and data folder, with a loopback SMTP server receiving its mail.
    command: 'node support/serve.mjs',
    url: `${E2E_BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { E2E_PORT: String(E2E_PORT) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
