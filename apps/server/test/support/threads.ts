import { readdirSync, readFileSync } from 'node:fs';

export interface TThread {
  tid: number;
  /** The thread's name (`libuv-worker` for libuv's thread pool). */
  name: string;
  nice: number;
}

/** A process's threads with their nice value (Linux: /proc). */
export function threadsOf(pid: number): TThread[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The name sits in parentheses (it may hold spaces); the nice value is the 17th field after it.
    const close = stat.lastIndexOf(')');
    return {
      tid: Number(tid),
      name: stat.slice(stat.indexOf('(') + 1, close),
      nice: Number(stat.slice(close + 2).split(' ')[16]),
    };
  });
}

/** The processes of a process group (a test's detached child and what it started). */
export function groupProcesses(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}
