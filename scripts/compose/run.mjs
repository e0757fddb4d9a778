// `npm run test:compose` (scripts/test-compose.mjs): what every part of it uses — the repository's
// root, the run's scratch folder, the clock, the log, running a command, waiting.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const work = mkdtempSync(path.join(os.tmpdir(), 'air-compose-'));

export const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const log = (line) => console.log(line);

/** Runs a command; throws with its output when it fails (unless `allowFail`). */
export function run(command, args, { allowFail = false, quiet = true, env, cwd = root } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: env ? { ...process.env, ...env } : process.env,
    encoding: 'utf8',
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) {
    if (allowFail) return { status: -1, stdout: '', stderr: String(result.error) };
    throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  }
  if (result.status !== 0 && !allowFail) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}\n${(result.stdout ?? '') + (result.stderr ?? '')}`.trim(),
    );
  }
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

export const has = (command) => run('sh', ['-c', `command -v ${command}`], { allowFail: true }).status === 0;

export async function until(what, timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      if (await probe()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting until ${what}${last ? `: ${last.message}` : ''}`);
    await sleep(250);
  }
}
