import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs tell the truth about what can be typed: every `npm run …` and `npm run cli -- …` the
 * README or docs/ name exists, every environment variable they document is read by the server (or
 * by a script), and every file path they cite is in the repository.
 */

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const docs = [
  'README.md',
  'docs/architecture.md',
  ...readdirSync(path.join(root, 'docs/decisions')).map((f) => `docs/decisions/${f}`),
];
const text = Object.fromEntries(docs.map((file) => [file, read(file)]));

function scriptsOf(packageFile: string): string[] {
  return Object.keys((JSON.parse(read(packageFile)) as { scripts?: Record<string, string> }).scripts ?? {});
}

/** Source files the environment can be read from: the server, the scripts, the e2e support. */
function sources(dir: string): string[] {
  if (!existsSync(path.join(root, dir))) return [];
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...sources(rel));
    } else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

describe('README and docs', () => {
  it('name only npm scripts that exist', () => {
    const root = scriptsOf('package.json');
    const workspaces: Record<string, string[]> = {
      'apps/server': scriptsOf('apps/server/package.json'),
      'apps/web': scriptsOf('apps/web/package.json'),
      e2e: scriptsOf('e2e/package.json'),
    };
    const missing: string[] = [];
    for (const [file, body] of Object.entries(text)) {
      for (const match of body.matchAll(/npm run ([a-z][\w:-]*)(?: -w ([\w/]+))?/g)) {
        const [, script, workspace] = match;
        const known = workspace ? (workspaces[workspace] ?? []) : root;
        if (!known.includes(script!))
          missing.push(`${file}: npm run ${script}${workspace ? ` -w ${workspace}` : ''}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('name only CLI commands that exist', () => {
    const commands = readdirSync(path.join(root, 'apps/server/src/cli'))
      .filter((f) => f.endsWith('.ts') && f !== 'command.ts')
      .map((f) => f.replace(/\.ts$/, ''));
    const missing: string[] = [];
    for (const [file, body] of Object.entries(text)) {
      for (const match of body.matchAll(/npm run cli -- ([a-z][\w-]*)/g)) {
        if (!commands.includes(match[1]!)) missing.push(`${file}: ${match[1]}`);
      }
      // The README's command table lists them as `migrate`, `create-master EMAIL`, …
      const row = /\| `npm run cli -- <command>` \| ([^|]+) \|/.exec(body);
      for (const name of row?.[1]?.matchAll(/`([a-z][\w-]*)/g) ?? []) {
        if (!commands.includes(name[1]!)) missing.push(`${file}: ${name[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('run the CLI where `npm start` runs, so both use the same DATA_DIR (default ./data)', () => {
    // A workspace script (`npm run cli -w apps/server`) ran in apps/server and seeded apps/server/data,
    // a database the server never opens.
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.start).toBe('exec node scripts/start.mjs');
    // The compiled CLI (decision 046), from the repository root like `npm start`.
    expect(scripts.cli).toBe('node scripts/cli.mjs');
  });

  it('document only environment variables the code reads', () => {
    const code = [...sources('apps/server/src'), ...sources('scripts'), ...sources('e2e/support')]
      .map((file) => read(file))
      .join('\n');
    const missing: string[] = [];
    const configuration = /## Configuration([\s\S]*?)\n## /.exec(text['README.md']!)?.[1] ?? '';
    expect(configuration).not.toBe('');
    for (const match of configuration.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)) {
      if (!code.includes(match[1]!)) missing.push(match[1]!);
    }
    // `OIDC_<NAME>_ISSUER` style families: the code builds the name from its parts.
    for (const match of configuration.matchAll(/`([A-Z]+)_<NAME>_/g)) {
      if (!code.includes(`${match[1]}_`)) missing.push(`${match[1]}_<NAME>_*`);
    }
    expect(missing).toEqual([]);
  });

  it('cite only files and folders that exist', () => {
    const missing: string[] = [];
    for (const [file, body] of Object.entries(text)) {
      for (const match of body.matchAll(/`((?:apps|packages|e2e|docs|scripts)\/[\w./-]+?)`/g)) {
        const cited = match[1]!.replace(/[.,:]$/, '');
        // Build outputs (`apps/web/dist`) appear only after a build.
        if (cited.includes('<') || cited.includes('*') || /\/dist(\/|$)/.test(cited)) continue;
        if (!existsSync(path.join(root, cited))) missing.push(`${file}: ${cited}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('resolve every citation in the code: spec and server contract sections, decision records', () => {
    const sections = (file: string) =>
      new Set([...read(file).matchAll(/^## (\d+)\./gm)].map((match) => Number(match[1])));
    const spec = sections('docs/spec/console-spec.md');
    const contract = sections('docs/spec/server-contract.md');
    const decisions = readdirSync(path.join(root, 'docs/decisions')).map((f) => f.slice(0, 3));
    const code = [
      ...sources('apps/server/src'),
      ...sources('apps/web/src'),
      ...sources('packages/shared/src'),
      ...sources('scripts'),
    ];
    expect(code.length).toBeGreaterThan(100);
    const unresolved: string[] = [];
    for (const file of code) {
      const body = read(file);
      for (const match of body.matchAll(/(server contract|spec) sections? (\d+)((?:(?:, | and )\d+)*)/gi)) {
        const numbers = [match[2]!, ...(match[3]!.match(/\d+/g) ?? [])].map(Number);
        const known = match[1]!.toLowerCase() === 'spec' ? spec : contract;
        for (const n of numbers) if (!known.has(n)) unresolved.push(`${file}: ${match[0]}`);
      }
      for (const match of body.matchAll(/decision(?:s\/| )(\d{3})/gi)) {
        if (!decisions.includes(match[1]!)) unresolved.push(`${file}: ${match[0]}`);
      }
      // A bare "contract section N" would not say which document it means.
      for (const match of body.matchAll(/(?<!server )contract section \d+/gi))
        unresolved.push(`${file}: ${match[0]}`);
    }
    expect(unresolved).toEqual([]);
  });
});
