import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The repository root (where `npm start` runs). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

export interface TAirProcess {
  child: ChildProcess;
  /** The URL from the "AIR is running at" line. */
  url: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves once the output matches (60 s at most). */
  waitFor(pattern: RegExp): Promise<void>;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | string>;
}

/**
 * Starts AIR as a user does (`npm start`, or `node scripts/start.mjs`), in its own process group
 * (so a test can check nothing of it is left), and resolves once it prints its running line.
 * PORT=0 unless given: the line names the port it bound. `cwd`: another copy of the app (its root).
 */
export function startAir(
  command: 'npm start' | 'node',
  env: Record<string, string>,
  timeoutMs = 120_000,
  cwd = REPO_ROOT,
): Promise<TAirProcess> {
  const [file, args] =
    command === 'npm start' ? ['npm', ['start']] : [process.execPath, ['scripts/start.mjs']];
  const child = spawn(file as string, args as string[], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: '0',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      ...env,
    },
  });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`AIR did not start within ${timeoutMs} ms:\n${text}`));
    }, timeoutMs);
    const check = () => {
      const match = /AIR is running at (\S+)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      const waitFor = async (pattern: RegExp) => {
        for (let waited = 0; !pattern.test(text); waited += 50) {
          if (waited > 60_000) throw new Error(`no ${pattern} in:\n${text}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      resolve({ child, url: match[1]!, output: () => text, waitFor, exited });
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`AIR exited (${code}) before it was running:\n${text}`));
    });
  });
}

/** True while any process of the child's process group is alive. */
export function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

/** Test clean-up: SIGKILL whatever is left of the child's process group. */
export function killGroup(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}
