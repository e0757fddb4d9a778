import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const redocly = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');
/** The lint configuration: recommended rules, and each rule turned down with its reason. */
const config = path.join(root, 'apps/server/redocly.yaml');

interface TProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/**
 * Runs `redocly lint --format=json` on the served document, offline: telemetry and update notices
 * off, and every connection refused by a preloaded module (support/no-network.mjs), so a remote
 * $ref, a remote config or a phone-home would show up as a network attempt.
 */
async function lint(document: unknown): Promise<{ problems: TProblem[]; stderr: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'air-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const args = [
      '--import',
      path.join(here, 'support/no-network.mjs'),
      redocly,
      'lint',
      file,
      `--config=${config}`,
      '--format=json',
      // The default stops at 100 problems: every one is wanted here.
      '--max-problems=100000',
    ];
    const env = {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
      NO_COLOR: '1',
    };
    // redocly exits 1 when it finds errors: its JSON report is still on stdout.
    const { stdout, stderr } = await run(process.execPath, args, {
      cwd: dir,
      env,
      maxBuffer: 64 << 20,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw error;
      return { stdout: error.stdout, stderr: error.stderr ?? '' };
    });
    return { problems: (JSON.parse(stdout) as { problems: TProblem[] }).problems, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const describeProblem = (problem: TProblem) =>
  `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}`;

type TDocument = { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

describe('the OpenAPI document passes redocly lint (recommended rules)', () => {
  let t: TTestApp;
  let document: TDocument;
  let result: { problems: TProblem[]; stderr: string };

  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.app.inject({ url: '/api/docs/json' })).json();
    result = await lint(document);
  }, 120_000);
  afterAll(() => t?.close());

  it('never reaches the network', () => {
    expect(result.stderr).not.toContain('AIR-NETWORK-ATTEMPT');
  });

  it('has no error', () => {
    expect(result.problems.filter((p) => p.severity === 'error').map(describeProblem)).toEqual([]);
  });

  it('has no warning either (a rule that cannot hold is turned off in redocly.yaml with its reason)', () => {
    expect(result.problems.filter((p) => p.severity === 'warn').map(describeProblem)).toEqual([]);
  });

  it('gives every operation a 2XX and a 4XX answer but the redirect-only ones (rules off in redocly.yaml)', () => {
    const lacking: string[] = [];
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item)) {
        const statuses = Object.keys(operation.responses ?? {});
        // A redirect-only route answers 302, and the social callback a bad query's 400 besides.
        if (statuses.includes('302') && statuses.every((status) => status === '302' || /^4/.test(status)))
          continue;
        if (!statuses.some((status) => /^2/.test(status))) lacking.push(`${method} ${path}: no 2XX`);
        if (!statuses.some((status) => /^4/.test(status))) lacking.push(`${method} ${path}: no 4XX`);
      }
    expect(lacking).toEqual([]);
  });

  it('documents no wildcard path: each parameter is a named segment', () => {
    expect(Object.keys(document.paths).filter((path) => path.includes('*'))).toEqual([]);
  });
});
