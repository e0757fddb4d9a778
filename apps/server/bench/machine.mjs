// How busy the machine was during a bench run, and what the measured processes themselves spent
// (Linux: reads /proc; elsewhere every reading is null and no warning is given). Wall-clock figures
// from a shared machine swing with whatever else runs; CPU time per call does not, so both are kept.
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const TICKS_PER_SECOND =
  Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** Other processes' CPU beyond this share of one core, or this much steal, marks a run as busy. */
const BUSY_OTHER_CORES = 0.25;
const BUSY_STEAL = 0.02;

function read(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Fields after the command name of a /proc stat line (the name may hold spaces and parentheses). */
function statFields(text) {
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** utime + stime of a process (all its threads) or of one thread, in ticks; 0 once it has ended. */
function ticksOf(file) {
  const text = read(file);
  if (!text) return 0;
  const fields = statFields(text);
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * The threads of `pid` by role: the event loop is the thread whose id is the process id, the
 * embedded database's thread the one running at a lower priority (a higher nice value:
 * db/embedded-worker.mjs), every other thread (libuv's pool, V8's helpers) "other".
 */
function threadTicks(pid) {
  let names;
  try {
    names = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const threads = [];
  for (const tid of names) {
    const text = read(`/proc/${pid}/task/${tid}/stat`);
    if (!text) continue;
    const fields = statFields(text);
    threads.push({
      tid: Number(tid),
      nice: Number(fields[16]),
      ticks: Number(fields[11]) + Number(fields[12]),
    });
  }
  const main = threads.find((thread) => thread.tid === pid);
  const split = { main: 0, database: 0, other: 0 };
  for (const thread of threads) {
    if (thread === main) split.main += thread.ticks;
    else if (main && thread.nice > main.nice) split.database += thread.ticks;
    else split.other += thread.ticks;
  }
  return split;
}

/** All CPUs' busy and steal ticks since boot (/proc/stat's first line). */
function machineTicks() {
  const text = read('/proc/stat');
  if (!text) return null;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = text
    .slice(0, text.indexOf('\n'))
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    busy: user + nice + system,
    steal,
    total: user + nice + system + idle + iowait + irq + softirq + steal,
  };
}

/**
 * A reading at one moment: the machine, every process of the bench (`pids`: this process and the
 * ones it started) and the threads of `focusPid` (AIR).
 */
export function snapshot(pids, focusPid) {
  const machine = machineTicks();
  if (!machine) return null;
  let bench = 0;
  for (const pid of pids) bench += ticksOf(`/proc/${pid}/stat`);
  return {
    at: performance.now(),
    machine,
    bench,
    focus: focusPid ? { ticks: ticksOf(`/proc/${focusPid}/stat`), threads: threadTicks(focusPid) } : null,
  };
}

/**
 * Between two snapshots: CPU steal (share of all CPU time), other processes' CPU in cores (the
 * machine's busy time minus the bench's own processes'), the 1-minute load average, whether that
 * makes the run "busy", and the focus process's CPU time in ms (total and by thread role).
 */
export function compare(before, after) {
  if (!before || !after) return null;
  const seconds = (after.at - before.at) / 1000;
  const total = after.machine.total - before.machine.total;
  const steal = total > 0 ? (after.machine.steal - before.machine.steal) / total : 0;
  const otherTicks = after.machine.busy - before.machine.busy - (after.bench - before.bench);
  const otherCores = Math.max(0, otherTicks / TICKS_PER_SECOND / seconds);
  const ms = (ticks) => (ticks * 1000) / TICKS_PER_SECOND;
  let focus = null;
  if (before.focus && after.focus) {
    const split = (role) =>
      after.focus.threads && before.focus.threads
        ? ms(after.focus.threads[role] - before.focus.threads[role])
        : NaN;
    focus = {
      cpuMs: ms(after.focus.ticks - before.focus.ticks),
      mainMs: split('main'),
      databaseMs: split('database'),
      otherMs: split('other'),
    };
  }
  return {
    steal,
    otherCores,
    load1: os.loadavg()[0],
    busy: steal > BUSY_STEAL || otherCores > BUSY_OTHER_CORES,
    focus,
  };
}
