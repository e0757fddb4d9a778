import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

/**
 * `npm run dev` (scripts/dev.mjs) stops whole: SIGTERM to npm, as `kill <pid of npm run dev>`
 * does, reaches the server (which shuts down gracefully, not force-killed) and Vite, and no process
 * of it is left. The server runs on the embedded database in a temporary data folder and on a port
 * of its own (PORT=0); Vite takes 5173 or the next free port.
 */

const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'air-dev-'));
let npm: ChildProcess | undefined;
let seen: TProc[] = [];

afterAll(() => {
  // Whatever a failed run left: the npm group and every process seen under it (still the same
  // command: a number the system has given to another process since is left alone).
  const left = processes().filter((p) => seen.some((s) => s.pid === p.pid && s.command === p.command));
  for (const pid of [...(npm?.pid ? [-npm.pid] : []), ...left.map((p) => p.pid)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface TProc {
  pid: number;
  ppid: number;
  state: string;
  command: string;
}

/** Every process on the machine, from /proc (Linux). */
function processes(): TProc[] {
  const list: TProc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (command name) state ppid …": the name may hold spaces and parentheses.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      list.push({ pid: Number(entry), ppid: Number(ppid), state: state!, command });
    } catch {
      // exited while being read
    }
  }
  return list;
}

/** The process's children, their children, and so on. */
function descendants(pid: number): TProc[] {
  const all = processes();
  const found: TProc[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const proc of all.filter((p) => p.ppid === parent)) {
      found.push(proc);
      queue.push(proc.pid);
    }
  }
  return found;
}

/** Running (an exited process waiting to be reaped, a zombie, runs nothing). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

it('`npm run dev` serves, then SIGTERM to npm stops the server gracefully and Vite, leaving no process', async () => {
  npm = spawn('npm', ['run', 'dev'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      NO_COLOR: '1',
    },
  });
  let text = '';
  npm.stdout!.on('data', (chunk) => (text += chunk));
  npm.stderr!.on('data', (chunk) => (text += chunk));
  const exited = new Promise<number | string>((resolve) =>
    npm!.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  // eslint-disable-next-line no-control-regex
  const plain = () => text.replace(/\u001b\[[0-9;]*m/g, '');
  const waitFor = async (pattern: RegExp) => {
    for (let waited = 0; !pattern.test(plain()); waited += 100) {
      if (waited > 150_000) throw new Error(`no ${pattern} in:\n${plain()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return pattern.exec(plain())!;
  };

  const [, serverUrl] = await waitFor(/AIR is running at (\S+)/);
  const [, viteUrl] = await waitFor(/Local:\s+(http\S+)/);
  expect((await fetch(`${serverUrl}/healthz`)).status).toBe(200);
  // Vite serves the console's page in dev mode (its client script injected).
  expect(await (await fetch(viteUrl!)).text()).toContain('/@vite/client');

  // npm, dev.mjs, tsx's watcher, the server it runs, Vite (and any helper they started).
  seen = descendants(npm.pid!);
  const commands = seen.map((p) => p.command);
  expect(commands.some((c) => c.includes('scripts/dev.mjs'))).toBe(true);
  expect(commands.some((c) => c.includes('tsx/dist/cli.mjs watch'))).toBe(true);
  expect(commands.some((c) => c.includes('loader.mjs apps/server/src/server.ts'))).toBe(true);
  expect(commands.some((c) => c.includes('vite/bin/vite.js'))).toBe(true);

  // The signal goes to npm itself, as `kill <pid of npm run dev>` does.
  process.kill(npm.pid!, 'SIGTERM');
  const code = await Promise.race([
    exited,
    new Promise((resolve) => setTimeout(() => resolve('still running after 20 s'), 20_000)),
  ]);
  expect(code).toBe(0);
  const stillAlive = () => seen.filter((p) => alive(p.pid)).map((p) => p.command);
  for (let i = 0; i < 50 && stillAlive().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(stillAlive()).toEqual([]);
  // The server got the signal once and shut down gracefully; tsx did not force-kill it.
  expect(plain()).toContain('"signal":"SIGTERM","msg":"shutting down"');
  expect(plain()).not.toMatch(/Force killing/);
}, 200_000);
