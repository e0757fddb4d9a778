import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * Screenshots for a person to look at, kept out of `npm test`: `npm run screenshots`
 * (scripts/screenshots.mjs; pictures in test-results/screenshots/). Tracing is off: the files
 * take hundreds of pictures and assert little.
 */
export default defineConfig({
  ...base,
  testMatch: ['shots/**/*.shots.ts'],
  // One project of its own: the browser tests' projects name their own files.
  projects: [{ name: 'shots', testMatch: ['shots/**/*.shots.ts'] }],
  use: { ...base.use, trace: 'off' },
});
