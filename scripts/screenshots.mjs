// `npm run screenshots`: pictures of the console for a person to look at, kept out of `npm test`.
// Runs the Playwright files in e2e/shots/ (e2e/playwright.shots.config.ts) against a server of
// their own, started like the browser tests' one: every page at 390 and 1280 px, light and dark,
// saved under test-results/screenshots/. Extra arguments are console paths to picture as well,
// signed in as an owner on a paid plan; SHOTS_LOCALE=es takes those and the billing tabs in Spanish.
//   npm run screenshots
//   npm run screenshots -- /dashboard /registry
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync(
  join(root, 'node_modules', '.bin', 'playwright'),
  ['test', '-c', 'playwright.shots.config.ts', '--reporter=list'],
  {
    cwd: join(root, 'e2e'),
    stdio: 'inherit',
    env: {
      ...process.env,
      E2E_PORT: process.env.E2E_PORT ?? '3280',
      SHOTS_PATHS: process.argv.slice(2).join(' '),
    },
  },
);
if (result.status === 0) console.log(`\nPictures in ${join(root, 'test-results', 'screenshots')}`);
process.exit(result.status ?? 1);
