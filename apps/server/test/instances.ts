import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';

const SERVER = path.resolve(import.meta.dirname, '../src/server.ts');
const CLI = path.resolve(import.meta.dirname, '../src/cli.ts');
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** A throw-away redis-server of the test's own (no persistence), never the shared one. */
export function startRedis(port: number): void {
  const result = spawnSync('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'yes',
  ]);
  if (result.status !== 0) throw new Error(`redis-server did not start: ${result.stderr.toString()}`);
  // A daemonized redis-server returns before it listens: a client connecting at once can be refused.
  const deadline = Date.now() + 10_000;
  while (
    spawnSync('redis-cli', ['-p', String(port), 'ping'])
      .stdout?.toString()
      .trim() !== 'PONG'
  ) {
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING`);
    spawnSync('sleep', ['0.05']);
  }
}

/** Stops the test's redis-server (its data goes with it). */
export function stopRedis(port: number): void {
  spawnSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave']);
}

export interface TInstance {
  url: string;
  process: ChildProcess;
  /** Everything the process printed (for a failure message). */
  output: () => string;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** The environment a test's server process (and a CLI run against its database) gets. */
function processEnv(env: Record<string, string>, port = 0): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    SECRET: 'test-secret-that-is-at-least-32-characters-long',
    UPSTREAM_ALLOW_PRIVATE: 'true',
    ...env,
  };
}

/**
 * `npm run cli -- <args>` against the database of `env` (an instance's): its output, or a throw
 * when it fails. An embedded database is one process's: stop the instance first.
 */
export function runCli(args: string[], env: Record<string, string>): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: processEnv(env),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`cli ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * Starts the real server (src/server.ts) as its own process and waits for /healthz. The port is
 * found free just before the server binds it, so another process (npm test runs three test runs
 * and a browser's server at once) may take it in between: then it starts again on another one.
 */
export async function startInstance(env: Record<string, string>): Promise<TInstance> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(env);
    } catch (error) {
      if (attempt >= 5 || !(error instanceof PortTaken)) throw error;
    }
  }
}

class PortTaken extends Error {}

async function startOnFreePort(env: Record<string, string>): Promise<TInstance> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: processEnv(env, port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  const closed = once(child, 'close').catch(() => undefined);
  for (;;) {
    if (child.exitCode !== null) {
      await closed; // its output read to the end
      if (/PORT: \d+ is already in use/.test(output)) throw new PortTaken(output);
      throw new Error(`the server exited at start:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    process: child,
    output: () => output,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One gateway call; answers the status (0 when the connection failed). */
export async function call(url: string, key: string, routeName: string): Promise<number> {
  try {
    const response = await fetch(`${url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/** How many of the statuses are each code. */
export function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
