// Resident memory of a process and everything it started (Linux: reads /proc). Used by
// scripts/measure-memory.mjs and the bench: the embedded database is created by a child process
// at a first start, so the server's own VmRSS/VmHWM would leave that memory out.
import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory in bytes of `pid` and all its descendants right now (0 once it has exited). */
export function treeRss(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may contain spaces: the fields after it follow the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // The process ended while we listed it.
    }
  }
  let total = 0;
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.pop();
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${current}/status`, 'utf8'));
      if (kb) total += Number(kb[1]) * 1024;
    } catch {
      continue;
    }
    queue.push(...(children.get(current) ?? []));
  }
  return total;
}

/** Samples treeRss(pid()) every `everyMs` until stopped; `peak()` is the highest sum seen. */
export function sampleTreeRss(pid, everyMs = 50) {
  let peak = 0;
  const timer = setInterval(() => {
    const current = pid();
    if (current) peak = Math.max(peak, treeRss(current));
  }, everyMs);
  return {
    peak: () => peak,
    stop: () => clearInterval(timer),
  };
}
