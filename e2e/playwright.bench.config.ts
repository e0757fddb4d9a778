import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The console's page-load figures, kept out of `npm test` (a benchmark asserts no timing):
 * `npm run bench:console` after `npm run build`. One worker, so the pages are measured one at a time.
 */
export default defineConfig({
  ...base,
  workers: 1,
  projects: [{ name: 'bench', testMatch: ['bench/**/*.bench.ts'] }],
  use: { ...base.use, trace: 'off' },
});
