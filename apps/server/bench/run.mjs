#!/usr/bin/env node
// AIR gateway benchmark (server contract section 9). `npm run bench [-- options]` from the repo root.
//   --duration S     seconds measured per run (default 4, after a --warmup of 1 s)
//   --rounds N       runs of each target and concurrency, interleaved (direct, floor, AIR, ...,
//                    direct, floor, AIR, ...); the report gives each figure's median and spread
//                    (default 3)
//   --connections L  concurrencies, comma-separated (default 1,64)
//   --delay MS       the mock upstream's fixed delay before answering (default 0)
//   --ttfb N         streamed requests per round for the time-to-first-byte comparison (default 300)
//   --sustain S      also load AIR at the top concurrency for S seconds and sample its RSS
//   --no-portkey     skip Portkey's gateway
//   --database-url U run AIR on this PostgreSQL database instead of the embedded one
//   --redis-url U    run AIR with REDIS_URL (shared counters and change bus), as a scaled-out install does
//   --root DIR       start AIR from another checkout of the repository (to compare two versions)
//   --calls N        measure each run as exactly N calls instead of --duration seconds, and let
//                    AIR's meter write them (1.5 s) before the run's CPU time is read: CPU time
//                    per N calls, the figure to compare versions by on a busy machine
//   --only LIST      measure only these targets (comma-separated names, e.g. floor,AIR)
//   --cpu-prof DIR   run AIR under `node --cpu-prof` (one profile per thread, written into DIR
//                    when the bench stops it)
//   --no-traced      skip AIR-traced: a second AIR with OpenTelemetry on (OTEL_EXPORTER_OTLP_ENDPOINT
//                    pointing at otlp-sink.mjs, a collector that discards), beside the AIR target
//                    whose tracing is off: the two rows show what tracing costs a call
//   (targets: direct, floor, AIR, AIR-routed, AIR-embeddings, AIR-responses, anthropic-upstream,
//   anthropic-client, AIR-traced, AIR-priced, AIR-tokens, AIR-budget, Portkey)
//   --fault S        the fault scenario's length at the top concurrency (default 15; 0 skips it): one
//                    of a routed route's two upstreams refuses connections for its middle third
// Starts, each in its own process: the mock upstream, the floor (bare undici proxy), AIR and Portkey's
// gateway; drives them with autocannon from this process. AIR starts exactly as `npm start` starts it
// (`node scripts/start.mjs`: same entry point, mode and log level, the embedded database in a fresh
// DATA_DIR), after building what `npm start` would build first (vite and esbuild are a fresh
// clone's one-off, not the server's memory): once on the empty data folder (first-start memory),
// then, after seed.ts has written the bench accounts, key and routes, again (idle memory after a
// restart), and that one is measured.
// Every run also reads, from /proc, the CPU time the measured server spent per call (by thread:
// event loop, embedded database, others) and how busy the machine was (CPU steal, other processes'
// CPU, load average): a run during which other processes took more than a quarter of a core, or
// steal passed 2 %, is marked busy. CPU time per call is the figure that holds on a busy machine.
// Its own dependencies (autocannon, @portkey-ai/gateway) live in this folder and are installed on
// first run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../../scripts/free-port.mjs';
import { sampleTreeRss, treeRss } from '../../../scripts/process-memory.mjs';
import { bodies, faultScenario, load, ttfb } from './drive.mjs';
import { compare, snapshot } from './machine.mjs';
import {
  children,
  cleanup,
  memory,
  startJson,
  startNpmStart,
  stopProcess,
  waitForPort,
} from './processes.mjs';
import { check, fmt, printReport } from './report.mjs';

const here = import.meta.dirname;
const root = path.resolve(here, '../../..');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '0' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
    connections: { type: 'string', default: '1,64' },
    delay: { type: 'string', default: '0' },
    ttfb: { type: 'string', default: '300' },
    sustain: { type: 'string', default: '0' },
    'no-portkey': { type: 'boolean', default: false },
    'no-traced': { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    'redis-url': { type: 'string' },
    root: { type: 'string' },
    fault: { type: 'string', default: '15' },
  },
});
const FAULT = Number(args.fault);
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const ROUNDS = Math.max(1, Number(args.rounds));
const CALLS = Number(args.calls);
/** With --calls, AIR's usage rows are written (the meter flushes every second) before CPU is read. */
const isAir = (target) => target.pid === air.child.pid || target.pid === airTraced?.child.pid;
const settle = (target) =>
  CALLS > 0 && isAir(target) ? new Promise((resolve) => setTimeout(resolve, 1500)) : null;
const CONNECTIONS = args.connections.split(',').map(Number);
const SUSTAIN = Number(args.sustain);
const PORTKEY_PORT = 8787;

if (
  !existsSync(path.join(here, 'node_modules', 'autocannon')) ||
  !existsSync(path.join(here, 'node_modules', '@portkey-ai'))
) {
  console.log('Installing the benchmark dependencies into apps/server/bench/node_modules (first run only)…');
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-workspaces'], {
    cwd: here,
    stdio: 'inherit',
  });
  if (npm.status !== 0) process.exit(npm.status ?? 1);
}

process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

/**
 * AIR as a user runs it: first start on an empty data folder (measured, then stopped), the bench's
 * rows written by seed.ts, then a restart, which the runs below measure.
 */
async function startAirAsNpmStartDoes(upstreamUrl, faultUrl, extraEnv = {}) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'air-bench-'));
  const plansFile = path.join(scratch, 'plans.json');
  const plan = { currency: 'usd', currency_symbol: '$', interval: 'month', type: 'flat' };
  const unlimited = { quota_calls_month: 2_000_000_000, rate_limit_per_minute: 2_000_000_000 };
  writeFileSync(
    plansFile,
    JSON.stringify({
      plans: [
        {
          ...plan,
          id: 'free',
          name: 'Free',
          price: 0,
          quota_calls_month: 1000,
          rate_limit_per_minute: 60,
          sort: 0,
        },
        { ...plan, id: 'bench', name: 'Bench', price: 1, ...unlimited, sort: 1 },
      ],
    }),
  );
  const port = await freePort();
  const startRoot = args.root ? path.resolve(args.root) : root;
  const env = {
    ...process.env,
    DATA_DIR: path.join(scratch, 'data'),
    PLANS_FILE: plansFile,
    PORT: String(port),
    DATABASE_URL: args['database-url'] ?? '',
    REDIS_URL: args['redis-url'] ?? '',
    ...extraEnv,
  };
  // On a fresh clone `npm start` first builds what is missing (vite, esbuild: a one-off, in child
  // processes). The first start's memory is the server's (decision 015), so the build is done
  // before it, the way start.mjs would do it (nothing is rebuilt when the build is current).
  const build = spawnSync(process.execPath, [path.join(here, 'ensure-build.mjs'), startRoot], {
    cwd: startRoot,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`building AIR failed:\n${build.stdout}${build.stderr}`);
  // A first start creates the database in a child process: its memory counts too.
  const firstChildren = children.length;
  const sampler = sampleTreeRss(() => children[firstChildren]?.pid);
  let child = await startNpmStart(startRoot, env);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  sampler.stop();
  const firstStart = {
    rssMb: treeRss(child.pid) / 1024 / 1024,
    peakMb: Math.max(sampler.peak() / 1024 / 1024, memory(child.pid).peakMb),
  };
  await stopProcess(child);
  const seed = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'seed.ts'), '--upstream', upstreamUrl, '--fault-upstream', faultUrl],
    {
      cwd: root,
      env,
      encoding: 'utf8',
    },
  );
  if (seed.status !== 0) throw new Error(`seeding failed:\n${seed.stderr}`);
  const info = JSON.parse(seed.stdout.trim().split('\n').at(-1));
  // Only the measured start is profiled (start.mjs's re-run keeps the flags).
  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : [];
  child = await startNpmStart(startRoot, env, profile);
  // Idle for a moment, as after a restart, before the memory reading.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  return { child, firstStart, info: { ...info, port } };
}

// ---- start everything ------------------------------------------------------------------------
const mock = await startJson('mock upstream', process.execPath, [
  path.join(here, 'mock-upstream.mjs'),
  '--delay',
  args.delay,
]);
const upstream = `http://127.0.0.1:${mock.info.port}`;
const floor = await startJson('floor proxy', process.execPath, [
  path.join(here, 'floor-proxy.mjs'),
  '--upstream',
  `${upstream}/v1/chat/completions`,
]);
// The fault scenario's second upstream: its own mock process on a fixed port, stopped and restarted.
const faultPort = await freePort();
const startFaultMock = () =>
  startJson('fault mock', process.execPath, [
    path.join(here, 'mock-upstream.mjs'),
    '--delay',
    args.delay,
    '--port',
    String(faultPort),
  ]);
let faultMock = await startFaultMock();
const air = await startAirAsNpmStartDoes(upstream, `http://127.0.0.1:${faultPort}`);
// The same AIR with tracing on, exporting every span to a collector that discards them. With
// --redis-url it shares the first one's Redis database (its own accounts, so nothing is shared).
let sink = null;
let airTraced = null;
if (!args['no-traced']) {
  sink = await startJson('OTLP sink', process.execPath, [path.join(here, 'otlp-sink.mjs')]);
  airTraced = await startAirAsNpmStartDoes(upstream, `http://127.0.0.1:${faultPort}`, {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.info.port}`,
    OTEL_SERVICE_NAME: 'air-bench',
  });
}
// Callers name the route by the body's model, as the OpenAI SDK does (the other targets ignore it).
bodies.plain = JSON.stringify({ model: air.info.route, messages: [{ role: 'user', content: 'Hello' }] });
bodies.stream = JSON.stringify({
  model: air.info.route,
  messages: [{ role: 'user', content: 'Hello' }],
  stream: true,
});
const airStartup = memory(air.child.pid);
const airFirstStart = air.firstStart;
// Reset AIR's peak-RSS mark: start-up peaks on its own; what matters here is the peak under load.
try {
  writeFileSync(`/proc/${air.child.pid}/clear_refs`, '5');
  if (airTraced) writeFileSync(`/proc/${airTraced.child.pid}/clear_refs`, '5');
} catch {
  // not permitted here: the peak below then includes start-up
}
const jsonHeaders = { 'content-type': 'application/json' };
const airUrl = `http://127.0.0.1:${air.info.port}/api/v1/chat/completions`;
const airHeaders = { ...jsonHeaders, authorization: `Bearer ${air.info.key}` };
const bodyFor = (model) => JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] });
let targets = [
  { name: 'direct', url: `${upstream}/v1/chat/completions`, headers: jsonHeaders, pid: mock.child.pid },
  {
    name: 'floor',
    url: `http://127.0.0.1:${floor.info.port}/v1/chat/completions`,
    headers: jsonHeaders,
    pid: floor.child.pid,
  },
  { name: 'AIR', url: airUrl, headers: airHeaders, pid: air.child.pid },
  {
    // Two healthy upstreams, retries 2, the circuit on, no cache (contract 6a).
    name: 'AIR-routed',
    url: airUrl,
    headers: airHeaders,
    body: bodyFor(air.info.routed),
    pid: air.child.pid,
  },
];
// The other OpenAI protocols on the same plain route (contract 6c): its URL's siblings upstream.
const airBase = `http://127.0.0.1:${air.info.port}/api/v1`;
targets.push(
  {
    name: 'AIR-embeddings',
    url: `${airBase}/embeddings`,
    headers: airHeaders,
    body: JSON.stringify({ model: air.info.route, input: 'Hello' }),
    pid: air.child.pid,
  },
  {
    name: 'AIR-responses',
    url: `${airBase}/responses`,
    headers: airHeaders,
    body: JSON.stringify({ model: air.info.route, input: 'Hello' }),
    pid: air.child.pid,
  },
);
// Provider formats (issue 40, contract 6c): an OpenAI client's chat call translated to an
// Anthropic-format upstream and back, and an Anthropic client's /v1/messages call translated to
// the plain (OpenAI) route and back. Both are compared with the plain chat target.
const anthropicBody = (stream) =>
  JSON.stringify({
    model: air.info.route,
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Hello' }],
    ...(stream ? { stream: true } : {}),
  });
if (air.info.anthropic)
  targets.push({
    name: 'anthropic-upstream',
    url: airUrl,
    headers: airHeaders,
    body: bodyFor(air.info.anthropic),
    streamBody: JSON.stringify({
      model: air.info.anthropic,
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
    }),
    pid: air.child.pid,
  });
targets.push({
  name: 'anthropic-client',
  url: `${airBase}/messages`,
  headers: { ...jsonHeaders, 'x-api-key': air.info.key, 'anthropic-version': '2023-06-01' },
  body: anthropicBody(false),
  streamBody: anthropicBody(true),
  pid: air.child.pid,
});
if (airTraced)
  targets.push({
    // The plain route on the AIR whose tracing is on: a call span, an attempt span, traceparent.
    name: 'AIR-traced',
    url: `http://127.0.0.1:${airTraced.info.port}/api/v1/chat/completions`,
    headers: { ...jsonHeaders, authorization: `Bearer ${airTraced.info.key}` },
    body: bodyFor(airTraced.info.route),
    pid: airTraced.child.pid,
  });
if (air.info.priced)
  targets.push({
    // Another account's priced, public route (contract 5a): the caller has a card on file and a
    // spend limit, so every call is priced and checked.
    name: 'AIR-priced',
    url: airUrl,
    headers: airHeaders,
    body: bodyFor(air.info.priced),
    pid: air.child.pid,
  });
if (air.info.tokenKey)
  targets.push({
    // A key with tokens per minute (issue 42): the prompt counted, reserved and settled per call.
    name: 'AIR-tokens',
    url: airUrl,
    headers: { ...jsonHeaders, authorization: `Bearer ${air.info.tokenKey}` },
    body: bodies.plain,
    pid: air.child.pid,
  });
if (air.info.budgetKey && air.info.priced)
  targets.push({
    // A key with a budget in money on the priced route: reserved against the budget and the spend limit at once.
    name: 'AIR-budget',
    url: airUrl,
    headers: { ...jsonHeaders, authorization: `Bearer ${air.info.budgetKey}` },
    body: bodyFor(air.info.priced),
    pid: air.child.pid,
  });
if (!args['no-portkey']) {
  const bin = path.join(here, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');
  const portkey = spawn(process.execPath, [bin, `--port=${PORTKEY_PORT}`, '--headless'], { stdio: 'ignore' });
  children.push(portkey);
  await waitForPort(PORTKEY_PORT);
  targets.push({
    name: 'Portkey',
    url: `http://127.0.0.1:${PORTKEY_PORT}/v1/chat/completions`,
    headers: {
      ...jsonHeaders,
      authorization: 'Bearer sk-bench',
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': `${upstream}/v1`,
    },
    pid: portkey.pid,
  });
}
if (args.only) {
  const only = new Set(args.only.split(','));
  targets = targets.filter((target) => only.has(target.name));
}
const byName = (name) => targets.find((target) => target.name === name);

console.log(
  `\nAIR gateway benchmark: node ${process.version}, ${ROUNDS} interleaved rounds of ${DURATION} s runs after a ${WARMUP} s warm-up, upstream delay ${args.delay} ms, AIR started as \`npm start\` does${args.root ? ` from ${args.root}` : ''} on ${args['database-url'] ? 'PostgreSQL' : 'the embedded database'}${args['redis-url'] ? ' with Redis' : ''}${args['cpu-prof'] ? ', under --cpu-prof' : ''}\n`,
);
const benchPids = () => [
  process.pid,
  ...children.filter((child) => child.exitCode === null).map((child) => child.pid),
];
/** name@connections -> one result per round. */
const results = {};
for (const connections of CONNECTIONS) {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      if (WARMUP > 0) await load(target, connections, WARMUP);
      await settle(target);
      const before = snapshot(benchPids(), target.pid);
      const result = await load(target, connections, DURATION, undefined, CALLS);
      await settle(target);
      result.machine = compare(before, snapshot(benchPids(), target.pid));
      const focus = result.machine?.focus;
      result.cpuUs = focus ? (focus.cpuMs * 1000) / result.requests : NaN;
      result.mainUs = focus ? (focus.mainMs * 1000) / result.requests : NaN;
      result.databaseUs = focus ? (focus.databaseMs * 1000) / result.requests : NaN;
      (results[`${target.name}@${connections}`] ??= []).push(result);
      const bad = result.non2xx + result.errors;
      const machine = result.machine;
      console.log(
        `  ${target.name.padEnd(10)} c=${String(connections).padEnd(3)} round ${round}  ${fmt(result.rps, 0).padStart(6)} req/s  p50 ${fmt(result.p50, 3)} ms  p99 ${fmt(result.p99, 3)} ms  CPU ${fmt(result.cpuUs, 0)} µs/call${isAir(target) ? ` (loop ${fmt(result.mainUs, 0)}, db ${fmt(result.databaseUs, 0)})` : ''}${bad ? `  (${bad} failed)` : ''}${machine?.busy ? `  BUSY: others ${fmt(machine.otherCores, 2)} cores, steal ${fmt(machine.steal * 100, 1)} %, load ${fmt(machine.load1, 1)}` : ''}`,
      );
    }
  }
}

let fault = null;
const routedTarget = byName('AIR-routed');
if (FAULT > 0 && routedTarget) {
  await load(routedTarget, Math.max(...CONNECTIONS), 2);
  fault = await faultScenario(
    {
      url: airUrl,
      headers: airHeaders,
      body: JSON.stringify({ model: air.info.fault, messages: [{ role: 'user', content: 'Hello' }] }),
    },
    Math.max(...CONNECTIONS),
    FAULT,
    {
      stop: () => faultMock.child.kill('SIGKILL'),
      restart: async () => {
        faultMock = await startFaultMock();
      },
    },
  );
}

const streamTargets = targets.filter((target) =>
  ['direct', 'floor', 'AIR', 'anthropic-upstream', 'anthropic-client'].includes(target.name),
);
// Interleaved rounds, like the load runs: each round's AIR figure is compared with the same round's direct.
const ttfbResults = {};
if (Number(args.ttfb) > 0)
  for (let round = 0; round < ROUNDS; round++)
    for (const target of streamTargets)
      (ttfbResults[target.name] ??= []).push(await ttfb(target, Number(args.ttfb)));
const airPeakAfterRuns = memory(air.child.pid);
// What the traced AIR exported (the sink's counts), and its memory beside the untraced one's.
const traced = sink
  ? {
      ...(await (await fetch(`http://127.0.0.1:${sink.info.port}/stats`)).json()),
      ...memory(airTraced.child.pid),
    }
  : null;

printReport({
  results,
  targets,
  CONNECTIONS,
  ROUNDS,
  air,
  byName,
  fault,
  FAULT,
  ttfbResults,
  airFirstStart,
  airStartup,
  airPeakAfterRuns,
  traced,
});

if (SUSTAIN > 0) {
  const high = Math.max(...CONNECTIONS);
  const samples = [];
  const sampler = setInterval(() => samples.push({ t: samples.length * 5, ...memory(air.child.pid) }), 5000);
  const sustained = await load(
    targets.find((target) => target.name === 'AIR'),
    high,
    SUSTAIN,
  );
  clearInterval(sampler);
  const steady = samples.filter((sample) => sample.t >= 10);
  const first = steady[0] ?? samples[0];
  const last = samples.at(-1);
  const max = Math.max(...steady.map((sample) => sample.rssMb));
  const growth = ((last.rssMb - first.rssMb) / first.rssMb) * 100;
  console.log(
    `  sustained ${SUSTAIN} s at c=${high}: ${fmt(sustained.rps, 0)} req/s; RSS at 10 s ${fmt(first.rssMb, 1)} MB, end ${fmt(last.rssMb, 1)} MB, max ${fmt(max, 1)} MB, change ${fmt(growth, 1)} % (target within 10 %: ${check(Math.abs(growth) <= 10 && ((max - first.rssMb) / first.rssMb) * 100 <= 10)})`,
  );
  console.log(`  RSS samples (MB, every 5 s): ${samples.map((sample) => fmt(sample.rssMb, 0)).join(' ')}`);
}
// A profiled AIR writes its profiles as it exits: waited for.
if (args['cpu-prof']) {
  await stopProcess(air.child);
  console.log(`\nCPU profiles of AIR's threads: ${path.resolve(args['cpu-prof'])}`);
}
cleanup();
process.exit(0);
