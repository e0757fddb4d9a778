import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from './build-lock.mjs';
import { renderSigninShell } from './console-shell.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'apps/web');
const stampFile = join(web, 'dist/.build-stamp');
const inputs = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/shared/src',
  // Renders the static sign-in page into the build (decision 034).
  'scripts/console-shell.mjs',
];

function hashInputs() {
  // The stamp records the mode too: a build is always a production build, whatever NODE_ENV the
  // caller runs under (the e2e server runs with NODE_ENV=test).
  const hash = createHash('sha256').update('mode:production\0');
  const walk = (rel) => {
    const abs = join(root, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) {
        if (!name.endsWith('.test.ts') && !name.endsWith('.test.tsx')) walk(join(rel, name));
      }
    } else {
      hash.update(rel).update('\0').update(readFileSync(abs)).update('\0');
    }
  };
  inputs.forEach(walk);
  return hash.digest('hex');
}

/** Builds apps/web/dist unless a build of exactly these sources is already there. */
export async function ensureConsoleBuild({ force = false } = {}) {
  const digest = hashInputs();
  const current = () =>
    existsSync(join(web, 'dist/index.html')) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === digest;
  if (!force && current()) return false;
  // Another process may have built these very sources while this one waited for the lock.
  return withBuildLock(join(web, 'dist'), () => (!force && current() ? false : buildConsole(digest)));
}

async function buildConsole(digest) {
  console.log('Building the console…');
  // Resolved from the web workspace: npm may install vite there rather than at the root.
  const viteBin = join(
    dirname(createRequire(join(web, 'package.json')).resolve('vite/package.json')),
    'bin/vite.js',
  );
  // Built beside dist and swapped in whole, so a server reading dist never sees a half-built folder.
  const staging = join(web, `dist.building-${process.pid}`);
  const result = spawnSync(process.execPath, [viteBin, 'build', '--outDir', staging, '--emptyOutDir'], {
    cwd: web,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`The console build failed (exit code ${result.status}).`);
  }
  // The sign-in page as static HTML, painted before the bundle runs (decision 034).
  try {
    await renderSigninShell({ web, viteBin, outDir: staging });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  writeFileSync(join(staging, '.build-stamp'), digest);
  const retired = join(web, `dist.old-${process.pid}`);
  if (existsSync(join(web, 'dist'))) renameSync(join(web, 'dist'), retired);
  renameSync(staging, join(web, 'dist'));
  rmSync(retired, { recursive: true, force: true });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureConsoleBuild({ force: process.argv.includes('--force') });
}
