import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './air-process';

/** The server from its sources, as a process (start-up errors, production's stdout). */
const SERVER = path.join(REPO_ROOT, 'apps/server/src/server.ts');
const dirs: string[] = [];

/** Removes the data folders the runs made (a test file's afterAll). */
export function removeDataDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'air-start-errors-'));
  dirs.push(dir);
  return dir;
}

export interface TRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

/**
 * Runs the server with `env` until it exits, or until its output matches `until` (then stops it).
 */
export function runServer(env: Record<string, string>, until?: RegExp): Promise<TRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: '0',
      DATA_DIR: dataDir(),
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      TRUST_PROXY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const check = () => {
    if (until?.test(stdout + stderr)) child.kill('SIGKILL');
  };
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    check();
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    check();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    }),
  );
}
