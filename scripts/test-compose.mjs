// `npm run test:compose`: builds and runs compose.yaml (PostgreSQL, Redis, two AIR instances,
// Caddy) on a project name and ports of its own, checks it through the proxy, and tears it all
// down, also when a check fails. The last line is "N passed, N failed" (decision 024).
//
// Engine: Docker when its daemon answers (official images from its registry); otherwise Podman,
// installed from Debian's packages when missing, with the images compose.yaml and the Dockerfile
// name (node:22-bookworm-slim, postgres:17, redis:7, caddy:2) built locally from Debian's packages
// (deploy/local-images/), only when missing: a second run reuses them. The project image is built
// from the unchanged Dockerfile every run.
//
//   --without-retry   runs the stack with deploy/Caddyfile's retry lines (lb_retries,
//                     lb_try_duration, lb_try_interval) removed: the kill check must then fail
//   AIR_COMPOSE_PORT  the proxy's port on this machine (default: a free one)
//   AIR_COMPOSE_ENGINE=podman  Podman even where Docker answers
//   AIR_COMPOSE_REUSE_IMAGE=1  skips building air:local when it exists (while working on the checks)
//   AIR_COMPOSE_KEEP=1         leaves the stack running at the end, to look at it (the next run
//                              removes it first)
//
// The parts live in scripts/compose/: run.mjs (commands, waiting), images.mjs (the engine and the
// images), stack.mjs (the override file, both instances serving), calls.mjs (API and gateway
// calls), report.mjs (a check and the tally), checks.mjs (the checks).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { runChecks } from './compose/checks.mjs';
import { chooseEngine, ensureLocalImages, imageExists } from './compose/images.mjs';
import { results } from './compose/report.mjs';
import { log, run, seconds, until, work } from './compose/run.mjs';
import { freePort } from './free-port.mjs';
import { bothServe, writeOverride } from './compose/stack.mjs';

const project = process.env.AIR_COMPOSE_PROJECT ?? 'air-compose-test';
const runStarted = Date.now();

async function main() {
  const engine = chooseEngine();
  const version = run(engine.cli, ['--version']).stdout.trim();
  log(`Engine: ${version}${engine.local ? ' (images built here, no registry)' : ''}`);
  if (engine.local) ensureLocalImages(engine);

  let started = Date.now();
  if (process.env.AIR_COMPOSE_REUSE_IMAGE === '1' && imageExists(engine, 'air:local')) {
    log('Project image air:local reused (AIR_COMPOSE_REUSE_IMAGE=1)');
  } else {
    run(engine.cli, ['build', '-q', '-t', 'air:local', '.']);
    log(`Project image air:local built from the Dockerfile in ${seconds(started)}`);
  }

  const port = Number(process.env.AIR_COMPOSE_PORT ?? (await freePort()));
  const mockPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const mockBase = `http://127.0.0.1:${mockPort}`;
  const override = writeOverride(port, mockPort);
  const env = { SECRET: randomBytes(36).toString('base64url'), AIR_HTTP_PORT: String(port) };
  const compose = (args, options = {}) =>
    run(
      engine.compose[0],
      [...engine.compose.slice(1), '-p', project, '-f', 'compose.yaml', '-f', override, ...args],
      {
        env,
        ...options,
      },
    );
  const containerOf = (service) => {
    const names = run(engine.cli, [
      'ps',
      '-a',
      '--filter',
      `label=com.docker.compose.project=${project}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
      '--format',
      '{{.Names}}',
    ])
      .stdout.trim()
      .split('\n')
      .filter(Boolean);
    if (names.length !== 1) throw new Error(`no single container for ${service}: ${names.join(', ')}`);
    return names[0];
  };
  const sql = (query) =>
    run(engine.cli, [
      'exec',
      containerOf('postgres'),
      'psql',
      '-U',
      'air',
      '-d',
      'air',
      '-tAc',
      query,
    ]).stdout.trim();

  const teardown = () => {
    if (process.env.AIR_COMPOSE_KEEP === '1')
      return log(`Stack left running (AIR_COMPOSE_KEEP=1) on ${base}`);
    const t = Date.now();
    compose(['down', '-v', '-t', '5'], { allowFail: true });
    rmSync(work, { recursive: true, force: true });
    log(`Stack removed in ${seconds(t)}`);
  };
  process.once('SIGINT', () => {
    teardown();
    process.exit(130);
  });

  try {
    // A stack left by an interrupted run of the same project goes first.
    compose(['down', '-v', '-t', '5'], { allowFail: true });
    started = Date.now();
    // PostgreSQL and Redis first: podman-compose orders by depends_on but does not wait for
    // `service_healthy` (Docker does); then both instances start at the same moment, with the proxy.
    compose(['up', '-d', '--no-build', 'postgres', 'redis', 'mock']);
    await until('PostgreSQL and Redis answer', 60_000, () => {
      run(engine.cli, ['exec', containerOf('postgres'), 'pg_isready', '-U', 'air', '-d', 'air']);
      return run(engine.cli, ['exec', containerOf('redis'), 'redis-cli', 'ping']).stdout.trim() === 'PONG';
    });
    compose(['up', '-d', '--no-build', 'air-1', 'air-2', 'proxy']);
    await bothServe(base);
    log(`Stack up in ${seconds(started)} on ${base} (project ${project})`);
    const version = (service, command) =>
      run(engine.cli, ['exec', containerOf(service), ...command]).stdout.trim();
    const caddy = version('proxy', ['caddy', 'version']).split(' ')[0];
    log(
      `PostgreSQL ${sql('show server_version')}, Redis ${/v=(\S+)/.exec(version('redis', ['redis-server', '--version']))?.[1]}, ` +
        `Caddy ${caddy}, Node ${version('air-1', ['node', '--version'])}`,
    );

    results.instanceLogs = () =>
      ['air-1', 'air-2']
        .map((service) => {
          const logs = compose(['logs', '--tail', '15', service], { allowFail: true });
          return `--- ${service} (last lines)\n${logs.stdout}${logs.stderr}`;
        })
        .join('\n');
    await runChecks({ engine, base, mockBase, sql, containerOf, compose, caddy });
  } catch (error) {
    results.failed += 1;
    log(`✗ the stack: ${String(error.message ?? error)}`);
    for (const service of ['air-1', 'air-2', 'proxy']) {
      const logs = compose(['logs', '--tail', '30', service], { allowFail: true });
      log(`--- ${service} (last lines)\n${logs.stdout}${logs.stderr}`);
    }
  } finally {
    teardown();
  }
}

try {
  await main();
} catch (error) {
  results.failed += 1;
  log(`✗ setup: ${String(error.message ?? error)}`);
}
log(`\nnpm run test:compose took ${seconds(runStarted)}`);
log(`${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed > 0 ? 1 : 0);
