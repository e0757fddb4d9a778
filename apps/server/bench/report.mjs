// The bench's report: every figure as the median of its rounds with their spread, the targets of
// the gateway issue, and whether the machine was quiet while it was measured.
import os from 'node:os';

export const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
export const check = (ok) => (ok ? 'met' : 'MISSED');

export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
/** "median (min-max)" of a figure over the rounds. */
function cell(values, digits) {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return '–';
  if (finite.length === 1) return fmt(finite[0], digits);
  return `${fmt(median(finite), digits)} (${fmt(Math.min(...finite), digits)}-${fmt(Math.max(...finite), digits)})`;
}

/** Prints the table, the targets and the machine's state from what run.mjs measured. */
export function printReport(measured) {
  const {
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
  } = measured;
  const runsOf = (name, connections) => results[`${name}@${connections}`] ?? [];
  const figure = (name, connections, key) => runsOf(name, connections).map((run) => run[key]);
  /** Round by round, `name`'s figure minus (or over) the same round's figure of `base`. */
  function paired(name, base, connections, key, ratio = false) {
    const own = figure(name, connections, key);
    const other = figure(base, connections, key);
    if (own.length === 0 || other.length === 0) return [];
    return own.map((value, i) => (ratio ? value / other[i] : value - other[i]));
  }

  console.log(
    `\nMedians of ${ROUNDS} interleaved rounds (min-max); added = the same round's figure minus the floor's; CPU = the target's own server process (the mock for direct), µs per call\n`,
  );
  console.log(
    '| target | c | req/s | p50 ms | p99 ms | added p50 ms | added p99 ms | CPU µs/call | AIR loop / db µs |\n|---|---|---|---|---|---|---|---|---|',
  );
  for (const connections of CONNECTIONS)
    for (const target of targets) {
      const isAir = target.pid === air.child.pid;
      const vsFloor = target.name !== 'direct' && target.name !== 'floor' && byName('floor');
      console.log(
        `| ${target.name} | ${connections} | ${cell(figure(target.name, connections, 'rps'), 0)} | ${cell(figure(target.name, connections, 'p50'), 3)} | ${cell(figure(target.name, connections, 'p99'), 3)} | ${vsFloor ? cell(paired(target.name, 'floor', connections, 'p50'), 3) : ''} | ${vsFloor ? cell(paired(target.name, 'floor', connections, 'p99'), 3) : ''} | ${cell(figure(target.name, connections, 'cpuUs'), 0)} | ${isAir ? `${fmt(median(figure(target.name, connections, 'mainUs')), 0)} / ${fmt(median(figure(target.name, connections, 'databaseUs')), 0)}` : ''} |`,
      );
    }

  const low = Math.min(...CONNECTIONS);
  const high = Math.max(...CONNECTIONS);
  const has = (...names) => names.every((name) => byName(name));
  console.log('\nTargets (medians of the rounds; each round compared with the same round)');
  if (has('AIR', 'direct')) {
    const added50 = median(paired('AIR', 'direct', low, 'p50'));
    const added99 = median(paired('AIR', 'direct', low, 'p99'));
    console.log(
      `  added latency c=${low} over direct: p50 ${fmt(added50, 3)} ms (target <= 0.3: ${check(added50 <= 0.3)}), p99 ${fmt(added99, 3)} ms (target <= 1.5: ${check(added99 <= 1.5)})`,
    );
  }
  if (has('AIR', 'floor')) {
    const ratios = paired('AIR', 'floor', high, 'rps', true).map((ratio) => ratio * 100);
    console.log(
      `  throughput c=${high}: AIR / floor ${cell(ratios, 0)} % (target >= 70 %: ${check(median(ratios) >= 70)})`,
    );
  }
  if (has('AIR', 'Portkey')) {
    const ratios = paired('AIR', 'Portkey', high, 'rps', true);
    console.log(
      `  throughput c=${high}: AIR / Portkey ${cell(ratios, 1)}x (target >= 2x: ${check(median(ratios) >= 2)})`,
    );
  }
  if (has('AIR', 'AIR-routed')) {
    const added = median(paired('AIR-routed', 'AIR', low, 'p50'));
    const ratios = paired('AIR-routed', 'AIR', high, 'rps', true).map((ratio) => ratio * 100);
    console.log(
      `  routing c=${low}: routed p50 ${cell(figure('AIR-routed', low, 'p50'), 3)} ms vs plain ${cell(figure('AIR', low, 'p50'), 3)} ms, added ${fmt(added, 3)} ms (target <= 0.05: ${check(added <= 0.05)}); c=${high}: routed / plain ${cell(ratios, 1)} % (target >= 95 %: ${check(median(ratios) >= 95)})`,
    );
  }
  for (const name of ['AIR-embeddings', 'AIR-responses']) {
    if (!has('AIR', name)) continue;
    const added = median(paired(name, 'AIR', low, 'p50'));
    const ratios = paired(name, 'AIR', high, 'rps', true).map((ratio) => ratio * 100);
    console.log(
      `  ${name.slice(4)} c=${low}: p50 added over chat ${fmt(added, 3)} ms (target <= 0.05: ${check(added <= 0.05)}); c=${high}: ${name.slice(4)} / chat ${cell(ratios, 1)} %`,
    );
  }
  // Provider formats (issue 40): translation adds at most 0.1 ms p50 at the lowest concurrency over
  // the plain chat target, and at most 1 ms to a stream's first byte.
  for (const name of ['anthropic-upstream', 'anthropic-client']) {
    if (!has('AIR', name)) continue;
    const added = median(paired(name, 'AIR', low, 'p50'));
    const ratios = paired(name, 'AIR', high, 'rps', true).map((ratio) => ratio * 100);
    const stream = ttfbResults[name] && ttfbResults.AIR;
    const ttfbAdded = stream
      ? ttfbResults[name].map((run, round) => run.p50 - ttfbResults.AIR[round].p50)
      : [];
    console.log(
      `  ${name} c=${low}: p50 added over chat ${fmt(added, 3)} ms (target <= 0.1: ${check(added <= 0.1)}); c=${high}: ${name} / chat ${cell(ratios, 1)} %${stream ? `; streaming TTFB p50 added over chat ${cell(ttfbAdded, 3)} ms (target <= 1: ${check(median(ttfbAdded) <= 1)})` : ''}`,
    );
  }
  if (has('AIR', 'AIR-traced')) {
    // Tracing off is the AIR row itself (compare it with an older checkout, --root, for what the
    // tracing code costs while off); on is AIR-traced, exporting every span.
    const added = median(paired('AIR-traced', 'AIR', low, 'p50'));
    const ratios = paired('AIR-traced', 'AIR', high, 'rps', true).map((ratio) => ratio * 100);
    const cpu = (name, c) => median((results[`${name}@${c}`] ?? []).map((run) => run.cpuUs));
    console.log(
      `  tracing c=${low}: traced p50 added ${fmt(added, 3)} ms over tracing off; c=${high}: traced / off ${cell(ratios, 1)} %; CPU ${fmt(cpu('AIR-traced', high), 0)} vs ${fmt(cpu('AIR', high), 0)} µs/call${traced ? `; the collector got ${traced.exports} exports (${fmt(traced.bytes / 1048576, 1)} MB); traced AIR peak RSS ${fmt(traced.peakMb, 1)} MB` : ''}`,
    );
  }
  if (has('AIR', 'AIR-priced')) {
    const added = median(paired('AIR-priced', 'AIR', low, 'p50'));
    const ratios = paired('AIR-priced', 'AIR', high, 'rps', true).map((ratio) => ratio * 100);
    console.log(
      `  marketplace c=${low}: priced p50 added ${fmt(added, 3)} ms over plain; c=${high}: priced / plain ${cell(ratios, 1)} %`,
    );
  }
  if (fault)
    console.log(
      `  fault (one of two upstreams refusing connections for ${fmt(FAULT / 3, 0)} s of ${FAULT} s, c=${high}, retries 2): ${fault.failed} caller-visible errors (target 0: ${check(fault.failed === 0)}); p99 before ${fmt(fault.p99Before, 3)} ms, during ${fmt(fault.p99During, 3)} ms (added ${fmt(fault.p99During - fault.p99Before, 3)} ms); ${fmt(fault.rpsDuring, 0)} req/s during`,
    );
  if (ttfbResults.AIR && ttfbResults.direct && ttfbResults.floor) {
    const of = (name, key) => ttfbResults[name].map((run) => run[key]);
    const added = ttfbResults.AIR.map((run, round) => run.p50 - ttfbResults.direct[round].p50);
    console.log(
      `  streaming TTFB p50 (${added.length} rounds): direct ${cell(of('direct', 'p50'), 3)} ms, AIR ${cell(of('AIR', 'p50'), 3)} ms, added ${cell(added, 3)} ms (target <= 1: ${check(median(added) <= 1)}); floor p50 ${cell(of('floor', 'p50'), 3)} ms; p99 direct ${cell(of('direct', 'p99'), 3)}, floor ${cell(of('floor', 'p99'), 3)}, AIR ${cell(of('AIR', 'p99'), 3)}`,
    );
  }
  console.log(
    `  AIR RSS: first start ${fmt(airFirstStart.rssMb, 1)} MB (peak ${fmt(airFirstStart.peakMb, 1)} MB, target <= 500: ${check(airFirstStart.peakMb <= 500)}); idle after a restart ${fmt(airStartup.rssMb, 1)} MB (target <= 250: ${check(airStartup.rssMb <= 250)}, restart peak ${fmt(airStartup.peakMb, 1)} MB); peak under load ${fmt(airPeakAfterRuns.peakMb, 1)} MB; now ${fmt(airPeakAfterRuns.rssMb, 1)} MB`,
  );

  const machines = Object.values(results)
    .flat()
    .map((run) => run.machine)
    .filter(Boolean);
  const busy = machines.filter((machine) => machine.busy);
  if (busy.length > 0)
    console.log(
      `\nWARNING: the machine was busy during ${busy.length} of ${machines.length} runs (other processes up to ${fmt(Math.max(...busy.map((m) => m.otherCores)), 2)} cores, CPU steal up to ${fmt(Math.max(...busy.map((m) => m.steal)) * 100, 1)} %, 1-minute load average ${fmt(Math.min(...machines.map((m) => m.load1)), 1)}-${fmt(Math.max(...machines.map((m) => m.load1)), 1)} on ${os.cpus().length} CPUs): the wall-clock figures are not a quiet machine's; CPU µs per call is.`,
    );
  else if (machines.length > 0)
    console.log(
      `\nThe machine was quiet during every run (other processes under 0.25 cores, steal under 2 %).`,
    );
}
