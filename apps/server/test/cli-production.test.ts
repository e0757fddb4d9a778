import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT } from './support/air-process';
import { ensureBuilt } from './support/build';
import { serverRuntimePackages } from './support/runtime-packages';

/*
 * Issue 43 item 5: `npm run cli -- …` after `npm ci --omit=dev`. The npm cache here cannot install
 * offline, so the install is laid out from this checkout: the package files, the built server,
 * its migrations, scripts/cli.mjs, and a node_modules holding only the server workspace's
 * run-time packages (what `npm ci --omit=dev` keeps): no tsx, no esbuild, no TypeScript.
 */

const scratch = mkdtempSync(path.join(os.tmpdir(), 'air-cli-production-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function productionInstall(target: string): void {
  for (const file of [
    'package.json',
    'scripts/cli.mjs',
    'apps/server/package.json',
    'apps/server/dist',
    'apps/server/drizzle',
    'packages/shared/package.json',
  ]) {
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    cpSync(path.join(REPO_ROOT, file), path.join(target, file), { recursive: true });
  }
  for (const location of serverRuntimePackages()) {
    // Nested locations come with their parent's folder; workspaces are not packages to link.
    if (!location.includes('node_modules/') || /node_modules\/.*node_modules\//.test(location)) continue;
    const destination = path.join(target, location);
    mkdirSync(path.dirname(destination), { recursive: true });
    if (!existsSync(destination)) symlinkSync(path.join(REPO_ROOT, location), destination);
  }
}

function npmRunCli(cwd: string, args: string[], env: Record<string, string>) {
  return spawnSync('npm', ['run', '--silent', 'cli', '--', ...args], {
    cwd,
    env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: '', REDIS_URL: '', SMTP_URL: '', ...env },
    encoding: 'utf8',
    timeout: 180_000,
  });
}

it('`npm run cli` runs the compiled CLI where only run-time dependencies are installed', async () => {
  await ensureBuilt();
  const install = path.join(scratch, 'install');
  productionInstall(install);
  expect(existsSync(path.join(install, 'node_modules/fastify'))).toBe(true);
  for (const dev of ['tsx', 'esbuild', 'typescript', 'vitest'])
    expect(existsSync(path.join(install, 'node_modules', dev))).toBe(false);

  const help = npmRunCli(install, ['help'], {});
  expect(help.stderr).toBe('');
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/^ {2}seed-demo /m);
  expect(help.stdout).toMatch(/^ {2}migrate /m);

  // A command that opens the (embedded) database, migrates it and writes through the whole app.
  const dataDir = path.join(scratch, 'data');
  const seeded = npmRunCli(install, ['seed-demo', 'ops@example.com'], { DATA_DIR: dataDir });
  expect(seeded.status, seeded.stderr).toBe(0);
  expect(seeded.stdout).toContain('Demo user created');
  const again = npmRunCli(install, ['seed-demo', 'ops@example.com'], { DATA_DIR: dataDir });
  expect(again.status).toBe(1);
  expect(again.stderr).toContain('ops@example.com already exists: nothing was changed.');
}, 400_000);
