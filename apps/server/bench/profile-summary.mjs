#!/usr/bin/env node
// Where a thread's CPU time went, from a `.cpuprofile` (`npm run bench -- --cpu-prof DIR` writes one
// per thread of AIR): self time by function and by package, and the inclusive time of functions
// whose name matches --focus (e.g. the meter's flush).
// --last S keeps only the samples of the profile's last S seconds (the load, not the start-up).
//   node apps/server/bench/profile-summary.mjs FILE.cpuprofile [--top 25] [--focus REGEX] [--last S]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, focus: { type: 'string' }, last: { type: 'string' } },
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// Sample times (microseconds); with --last, the earlier samples are dropped.
{
  let at = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (at += delta));
  const from = values.last ? profile.endTime - Number(values.last) * 1e6 : -Infinity;
  const keep = times.map((time) => time >= from);
  profile.samples = profile.samples.filter((_, i) => keep[i]);
  profile.timeDeltas = profile.timeDeltas.filter((_, i) => keep[i]);
}
// Self time per node from the samples and their time deltas (microseconds).
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...self.values()].reduce((sum, value) => sum + value, 0);
const idleIds = new Set(
  profile.nodes
    .filter((node) => ['(idle)', '(program)'].includes(node.callFrame.functionName))
    .map((n) => n.id),
);
const idle = [...idleIds].reduce((sum, id) => sum + (self.get(id) ?? 0), 0);

/** A package-level name for a script URL: node's own, a dependency, or the project's source. */
function packageOf(url) {
  if (!url) return '(native/V8)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/').slice(0, 2).join('/');
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const src = url.indexOf('/src/');
  if (src >= 0)
    return (
      'air:' +
      url
        .slice(src + 5)
        .split('/')
        .slice(0, -1)
        .join('/')
    );
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return 'air:dist';
  return url;
}

const byFunction = new Map();
const byPackage = new Map();
for (const [id, time] of self) {
  const { callFrame } = nodes.get(id);
  const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
  const pkg = idleIds.has(id) ? callFrame.functionName : packageOf(callFrame.url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time);
}

const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const pct = (us) => ((us / total) * 100).toFixed(1).padStart(5);
console.log(
  `${positionals[0]}: ${ms(total)} ms sampled, ${ms(total - idle)} ms busy (${(((total - idle) / total) * 100).toFixed(1)} %)\n`,
);
console.log('Self time by package');
for (const [name, time] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  console.log(`${ms(time)} ms ${pct(time)} %  ${name}`);
console.log('\nSelf time by function');
for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
  console.log(`${ms(time)} ms ${pct(time)} %  ${name}`);

if (values.focus) {
  // Inclusive time: a sample counts once for a function however deep it recurses.
  const pattern = new RegExp(values.focus);
  const inclusive = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const { callFrame } = nodes.get(id);
      const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`;
      if (!pattern.test(name) || seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  }
  console.log(`\nInclusive time of functions matching /${values.focus}/`);
  for (const [name, time] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`${ms(time)} ms ${pct(time)} %  ${name}`);
}
