// `npm test`: the whole suite. Types and lint, the console build and its size budget, then at once
// the unit + API tests (embedded database, and PostgreSQL when TEST_DATABASE_URL is set) and the
// browser end-to-end tests.
// Every step runs even when an earlier one fails; the last line sums every runner.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
const failures = [];

/**
 * One step in the foreground, its output straight to ours. Asynchronous, not spawnSync: a step
 * running in the background has its output piped to this process, and a blocked event loop would
 * leave that pipe undrained until the background step stalls on a full pipe.
 */
function run(label, command, args, { env = {}, cwd = root } = {}) {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  const child = spawn(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  return new Promise((resolve) => {
    child.on('close', (status) => {
      console.log(
        `◀ ${label}: ${status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      resolve(status === 0);
    });
  });
}

/**
 * Like run, in the background: its output is held and printed in one piece when it ends, so two
 * single-threaded steps can share this machine's two cores without mixing their lines.
 */
function runInBackground(label, command, args, { env = {}, cwd = root } = {}) {
  const started = Date.now();
  const child = spawn(command, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (status) => {
      console.log(`\n▶ ${label} (ran alongside the steps above)`);
      process.stdout.write(Buffer.concat(output));
      console.log(
        `◀ ${label}: ${status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      resolve(status === 0);
    });
  });
}

function check(label, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(label);
  }
}

// The failed tests' names and first message lines, printed again at the end: a CI log is often
// read from its tail only, where the runner's own report of them has long scrolled away.
const failedTests = [];

function countVitest(label, file, ok) {
  if (!existsSync(file)) return check(label, false);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const message = (test.failureMessages?.[0] ?? '').split('\n').slice(0, 3).join(' | ');
      failedTests.push(
        `${label}: ${relative(root, suite.name)} > ${test.fullName}\n    ${message.slice(0, 400)}`,
      );
    }
    if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failedTests.push(
        `${label}: ${relative(root, suite.name)} (outside any test)\n    ${(suite.message ?? '').slice(0, 400)}`,
      );
    }
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  if (report.numFailedTests > 0 || !ok) failures.push(label);
  if (report.numFailedTests === 0 && !ok) failed += 1; // the runner failed outside any test
}

const node = process.execPath;
const bin = (name) => join(root, 'node_modules', '.bin', name);

// The type check (tsc, one core) runs while the linters take the other core.
const typecheck = runInBackground('typecheck', 'npm', ['run', 'typecheck', '--silent']);
check('eslint', await run('eslint', bin('eslint'), ['.']));
// Import cycles and layer boundaries (docs/architecture.md, decision 013).
check(
  'dependencies',
  await run('dependencies', bin('depcruise'), ['apps', 'packages', '--config', '.dependency-cruiser.mjs']),
);
check('prettier', await run('prettier', bin('prettier'), ['--check', '.', '--log-level', 'warn']));
check('typecheck', await typecheck);

// The console is built (and its size checked) first: the browser tests need it.
check('console build', await run('console build', node, ['scripts/console-build.mjs']));
check('bundle budgets', await run('bundle budgets per route', node, ['scripts/bundle-size.mjs']));

// Then the three test runs at once: the embedded pass (two workers), the PostgreSQL pass (one) and
// the browser tests (two browsers and one server). Each spends much of its time waiting (child
// processes, sockets, timers, the browser's rendering), so one at a time left a core idle about
// half the time: 19 min in a row, where together they share the cores. They share nothing: the
// embedded pass opens its databases in memory, the PostgreSQL pass its own on the server, the
// browser tests a server of their own on their own port and data folder.
const pgJson = join(out, 'vitest-postgres.json');
const pgPass = process.env.TEST_DATABASE_URL
  ? runInBackground(
      'API tests (PostgreSQL server)',
      bin('vitest'),
      [
        'run',
        '--project',
        'server',
        '--maxWorkers=1',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${pgJson}`,
      ],
      { env: { AIR_TEST_DB: 'postgres' } },
    )
  : null;

const pwJson = join(out, 'playwright.json');
const browserTests = runInBackground(
  'browser end-to-end (Chromium)',
  bin('playwright'),
  ['test', '--reporter=list,json'],
  { cwd: join(root, 'e2e'), env: { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson } },
);

const vitestJson = join(out, 'vitest.json');
const vitestOk = await run('unit + API tests (embedded PostgreSQL)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
countVitest('vitest', vitestJson, vitestOk);

if (pgPass) countVitest('vitest (postgres)', pgJson, await pgPass);
else console.log('\nTEST_DATABASE_URL is not set: the API tests ran on the embedded database only.');

const pwOk = await browserTests;
if (existsSync(pwJson)) {
  const report = JSON.parse(readFileSync(pwJson, 'utf8'));
  const { stats } = report;
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message ?? '';
        failedTests.push(
          `playwright: ${spec.file}:${spec.line} > ${spec.title}\n    ${error.split('\n')[0].slice(0, 400)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  // A test of a project that depends on a failed one does not run (skipped): counted as failed.
  if (stats.skipped > 0)
    failedTests.push(`playwright: ${stats.skipped} tests did not run (a project they depend on failed)`);
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected + stats.skipped;
  if (stats.unexpected + stats.skipped > 0 || !pwOk) failures.push('playwright');
  if (stats.unexpected + stats.skipped === 0 && !pwOk) failed += 1;
} else check('playwright', false);

if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join('\n')}`);
if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
