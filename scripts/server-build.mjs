import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from './build-lock.mjs';

// The server compiled to plain JavaScript, one output file per source file (the server discovers
// its modules, plugins, CLI commands and mail templates by listing folders), so `npm start` runs
// it with Node alone: no TypeScript loader and no dev dependency at run time.
//   apps/server/src/**       -> apps/server/dist/**          (same depth: paths from import.meta.dirname hold)
//   packages/shared/src/**   -> apps/server/dist/_shared/**  (@air/shared imports are rewritten to it)

const root = fileURLToPath(new URL('..', import.meta.url));
const serverSrc = join(root, 'apps/server/src');
const sharedSrc = join(root, 'packages/shared/src');
const dist = join(root, 'apps/server/dist');
export const SERVER_ENTRY = join(dist, 'server.js');
const stampFile = join(dist, '.build-stamp');
const inputs = [
  serverSrc,
  sharedSrc,
  join(root, 'apps/server/package.json'),
  join(root, 'package-lock.json'),
];

const isTest = (name) => /\.(test|spec)\.tsx?$/.test(name) || name.endsWith('.d.ts');

function walk(dir, files = []) {
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) walk(abs, files);
    else if (!isTest(name)) files.push(abs);
  }
  return files;
}

function hashInputs() {
  const hash = createHash('sha256').update(`node:${process.versions.node.split('.')[0]}\0`);
  for (const input of inputs) {
    if (!existsSync(input)) continue;
    for (const file of statSync(input).isDirectory() ? walk(input) : [input]) {
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

/** The built path of a source file (.ts -> .js, shared sources under _shared). */
function outputOf(file, outDir) {
  const inShared = file.startsWith(sharedSrc + sep);
  const rel = relative(inShared ? sharedSrc : serverSrc, file).replace(/\.ts$/, '.js');
  return join(outDir, inShared ? '_shared' : '', rel);
}

function resolveSource(base) {
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** esbuild plugin: every import stays an import; local ones point at the built file beside it. */
const rewriteImports = (outDir) => ({
  name: 'air-rewrite-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      let target;
      if (args.path.startsWith('.')) target = resolveSource(join(args.resolveDir, args.path));
      else if (args.path === '@air/shared') target = join(sharedSrc, 'index.ts');
      else if (args.path.startsWith('@air/shared/'))
        target = resolveSource(join(sharedSrc, args.path.slice(12)));
      else return { path: args.path, external: true }; // a package: resolved by Node at run time
      if (!target) return { errors: [{ text: `cannot resolve ${args.path} from ${args.importer}` }] };
      if (!target.endsWith('.ts')) return { path: args.path, external: true }; // e.g. JSON read at run time
      let spec = relative(dirname(outputOf(args.importer, outDir)), outputOf(target, outDir))
        .split(sep)
        .join('/');
      if (!spec.startsWith('.')) spec = `./${spec}`;
      return { path: spec, external: true };
    });
  },
});

/** Builds apps/server/dist unless a build of exactly these sources is already there. */
export async function ensureServerBuild({ force = false } = {}) {
  const digest = hashInputs();
  const current = () =>
    existsSync(SERVER_ENTRY) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest;
  if (!force && current()) return false;
  // Another process may have built these very sources while this one waited for the lock.
  return withBuildLock(dist, () => (!force && current() ? false : buildServer(digest)));
}

async function buildServer(digest) {
  console.log('Building the server…');
  const { build } = await import('esbuild'); // a dev dependency: only loaded when building
  const staging = `${dist}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const sources = [...walk(serverSrc), ...walk(sharedSrc)];
  try {
    await build({
      entryPoints: sources
        .filter((file) => file.endsWith('.ts'))
        .map((file) => ({ in: file, out: outputOf(file, staging).replace(/\.js$/, '') })),
      outdir: staging,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'warning',
      plugins: [rewriteImports(staging)],
    });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  // Files the server reads at run time (e.g. billing/plans.json) travel with it.
  for (const file of sources.filter((file) => !file.endsWith('.ts'))) {
    const out = outputOf(file, staging);
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(file, out);
  }
  createEmbeddedTemplate(staging);
  writeFileSync(join(staging, '.build-stamp'), digest);
  // Swapped in whole, so a server starting meanwhile never loads a half-built folder.
  const retired = `${dist}.old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, retired);
  renameSync(staging, dist);
  rmSync(retired, { recursive: true, force: true });
  return true;
}

/**
 * A new embedded database, dumped once here, so a first start unpacks it instead of running
 * initdb (see db/embedded-client.ts). Made in a child process: initdb's memory goes with it.
 */
function createEmbeddedTemplate(outDir) {
  const db = join(outDir, 'db');
  const result = spawnSync(
    process.execPath,
    [join(db, 'embedded-create.mjs'), '--template', join(db, 'embedded-template.tar.gz'), '[]'],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    throw new Error('Building the server: creating the embedded database template failed');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureServerBuild({ force: process.argv.includes('--force') });
}
