// The bench's processes: started, awaited, measured (memory from /proc) and stopped. Every process
// started here is in `children`, which `cleanup` stops when the bench exits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const children = [];
export function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

/** Starts a process and resolves with the JSON object it prints first. */
export function startJson(name, command, commandArgs, options = {}) {
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'inherit'], ...options });
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve({ child, info: JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
  });
}

export async function waitForPort(port, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const up = await new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`nothing listens on ${port}`);
}

export function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** `node scripts/start.mjs` in `cwd`; resolves once it prints its running line. Output is drained, not shown. */
export function startNpmStart(cwd, env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, path.join(cwd, 'scripts/start.mjs')], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const keep = (chunk) => {
    if (output.length < 20_000) output += chunk;
  };
  child.stderr.on('data', keep);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      keep(line + '\n');
      if (line.startsWith('AIR is running at')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`AIR exited (${code}) before it was ready:\n${output}`)));
  });
}

export async function stopProcess(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
