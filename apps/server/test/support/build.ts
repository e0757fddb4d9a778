import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from './air-process';

/**
 * Makes sure apps/server/dist and apps/web/dist hold a build of the current sources (what
 * `npm start` does outside production before it runs), so a test can start AIR with
 * NODE_ENV=production, which never builds. A no-op when both are current.
 */
export async function ensureBuilt(): Promise<void> {
  const script = [
    "const { ensureServerBuild } = await import('./scripts/server-build.mjs');",
    "const { ensureConsoleBuild } = await import('./scripts/console-build.mjs');",
    'await ensureServerBuild();',
    'await ensureConsoleBuild();',
  ].join('\n');
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
}

export interface TRunResult {
  /** The exit code (or the signal's name). */
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Runs `node scripts/start.mjs` (as `npm start` does) to its end with this environment. */
export function runStartToEnd(env: Record<string, string>, timeoutMs = 60_000): Promise<TRunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['scripts/start.mjs'],
      { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        if (error && error.killed)
          reject(new Error(`still running after ${timeoutMs} ms:\n${stdout}${stderr}`));
        else resolve({ code: child.exitCode ?? child.signalCode ?? -1, stdout, stderr });
      },
    );
  });
}
