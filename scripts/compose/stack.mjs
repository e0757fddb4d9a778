// `npm run test:compose`: the stack's override file (the test's stand-ins beside compose.yaml)
// and the wait until both instances serve through the proxy.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, until, work } from './run.mjs';

const withoutRetry = process.argv.includes('--without-retry');

export function writeOverride(port, mockPort) {
  // One plan with a quota of 200 calls (the quota check) and one without practical limits (the
  // load checks), chosen with the local card processor.
  const plans = path.join(work, 'plans.json');
  const plan = (id, sort, price, quota) => ({
    id,
    name: id,
    price,
    currency: 'usd',
    currency_symbol: '$',
    interval: 'month',
    type: 'flat',
    quota_calls_month: quota,
    rate_limit_per_minute: 10_000_000,
    sort,
  });
  writeFileSync(
    plans,
    JSON.stringify({ plans: [plan('free', 0, 0, 200), plan('load', 1, 100, 100_000_000)] }),
  );
  const instance = `
    environment:
      APP_URL: http://localhost:${port}
      SMTP_URL: smtp://mock:2525
      METRICS_TOKEN: ${randomBytes(24).toString('hex')}
      UPSTREAM_ALLOW_PRIVATE: 'true'
      PLANS_FILE: /plans/plans.json
    volumes:
      - ${plans}:/plans/plans.json:ro`;
  let proxy = '';
  if (withoutRetry) {
    const caddyfile = path.join(work, 'Caddyfile.without-retry');
    const original = readFileSync(path.join(root, 'deploy/Caddyfile'), 'utf8');
    const stripped = original
      .split('\n')
      .filter((line) => !/^\s*(lb_retries|lb_try_duration|lb_try_interval)\b/.test(line))
      .join('\n');
    if (stripped === original) throw new Error('deploy/Caddyfile has no retry lines to remove');
    writeFileSync(caddyfile, stripped);
    proxy = `
  proxy:
    command: ['caddy', 'run', '--config', '/etc/caddy/Caddyfile.without-retry', '--adapter', 'caddyfile']
    volumes:
      - ${caddyfile}:/etc/caddy/Caddyfile.without-retry:ro`;
  }
  const file = path.join(work, 'compose.test.yaml');
  writeFileSync(
    file,
    `# Written by scripts/test-compose.mjs: the test's stand-ins beside compose.yaml, unchanged.
services:
  air-1:${instance}
  air-2:${instance}
  mock:
    image: air:local
    command: ['node', '/mock/mock.mjs']
    volumes:
      - ${path.join(root, 'scripts/compose/mock.mjs')}:/mock/mock.mjs:ro
    ports:
      - '127.0.0.1:${mockPort}:9000'${proxy}
`,
  );
  return file;
}

/** Until both instances answer /healthz through the proxy with Redis in use (shared counters). */
export async function bothServe(base) {
  const seen = new Set();
  await until('both instances answer through the proxy, counting in Redis', 120_000, async () => {
    const response = await fetch(`${base}/healthz`);
    const body = await response.json().catch(() => ({}));
    if (response.status === 200 && body.redis === 'up') seen.add(response.headers.get('x-air-instance'));
    return seen.has('air-1') && seen.has('air-2');
  });
}
