// Load for a target: autocannon runs (latencies from each response's own timing) and sequential
// streamed requests for the time to first byte.
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = import.meta.dirname;
let cannon = null;
/** autocannon, required on first use: run.mjs installs it on the bench's first run. */
export function autocannon(...args) {
  cannon ??= createRequire(path.join(here, 'package.json'))('autocannon');
  return cannon(...args);
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Set once AIR is up: callers name its route by the body's model, as the OpenAI SDK does. */
export const bodies = { plain: '', stream: '' };

/** autocannon run; latencies taken from its per-response timings (float ms), not its integer-ms histogram. */
export function load(target, connections, duration, onTick, amount) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: target.headers,
        body: target.body ?? bodies.plain,
        connections,
        ...(amount ? { amount } : { duration }),
        pipelining: 1,
      },
      (error, result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        resolve({
          rps: result.requests.total / result.duration,
          requests: result.requests.total,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status < 300) latencies.push(responseTime);
    });
    if (onTick) instance.on('tick', onTick);
  });
}

/** Sequential streamed requests: time from sending to the first body byte, in ms. */
export async function ttfb(target, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(target.url);
  const times = [];
  for (let i = 0; i < count + 20; i++) {
    const time = await new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: target.headers,
        },
        (res) => {
          let first = null;
          res.on('data', () => {
            first ??= Number(process.hrtime.bigint() - started) / 1e6;
          });
          res.on('end', () =>
            res.statusCode === 200 ? resolve(first) : reject(new Error(`${target.name}: ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(target.streamBody ?? bodies.stream);
    });
    if (i >= 20) times.push(time); // the first 20 warm the connection and the JIT
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/**
 * One of the fault route's two upstreams refuses connections for the middle third of the run
 * (`upstream.stop` kills its process, `upstream.restart` starts it again on the same port).
 * Caller-visible failures, and p99 before and during the fault.
 */
export async function faultScenario(target, connections, seconds, upstream) {
  const third = (seconds * 1000) / 3;
  const started = Date.now();
  const samples = [];
  let failed = 0;
  const stop = setTimeout(upstream.stop, third);
  const restart = setTimeout(upstream.restart, 2 * third);
  await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: target.headers,
        body: target.body,
        connections,
        duration: seconds,
      },
      (error, result) => (error ? reject(error) : resolve((failed += result.errors + result.timeouts))),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 300) failed++;
      else samples.push([Date.now() - started, responseTime]);
    });
  });
  clearTimeout(stop);
  clearTimeout(restart);
  const window = (from, to) =>
    samples
      .filter(([at]) => at >= from && at < to)
      .map(([, ms]) => ms)
      .sort((a, b) => a - b);
  const before = window(0, third);
  const during = window(third, 2 * third);
  return {
    failed,
    p99Before: percentile(before, 99),
    p99During: percentile(during, 99),
    rpsDuring: during.length / (third / 1000),
  };
}
