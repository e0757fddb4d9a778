// Memory of `npm start` with the embedded database, as a user runs it (Linux: reads /proc).
// Starts `node scripts/start.mjs` on an empty DATA_DIR (first start: the database is created and
// migrated), stops it, and starts it again on the same folder (a restart). For each start it
// samples the resident memory (VmRSS) of the process and every process under it every 50 ms and
// prints the peak and the figure once it has been idle (no request) for --settle seconds.
// Reported, never asserted: RSS depends on the machine and on what else runs on it.
//
//   node scripts/measure-memory.mjs [--settle 10]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';
import { treeRss } from './process-memory.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const settleArg = process.argv.indexOf('--settle');
const settleSeconds = settleArg > 0 ? Number(process.argv[settleArg + 1]) : 10;

const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function measure(label, dataDir) {
  const env = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()) };
  // The embedded default: no external services.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV']) delete env[name];
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = Date.now();
  let peak = 0;
  let runningAt = 0;
  let peakBeforeRunning = 0;
  const sampler = setInterval(() => {
    const rss = treeRss(child.pid);
    peak = Math.max(peak, rss);
    if (!runningAt) peakBeforeRunning = peak;
  }, 50);
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    if (!runningAt && output.includes('AIR is running')) runningAt = Date.now();
  });
  while (!runningAt) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
  const idle = treeRss(child.pid);
  clearInterval(sampler);
  child.kill('SIGTERM');
  await once(child, 'exit');
  console.log(
    `${label}: running after ${((runningAt - started) / 1000).toFixed(1)} s; peak ${mb(peak)} ` +
      `(${mb(peakBeforeRunning)} before the running line); idle ${settleSeconds} s later ${mb(idle)}`,
  );
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-memory-'));
try {
  await measure('first start (empty DATA_DIR)', dataDir);
  await measure('restart', dataDir);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
