import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, inject, it } from 'vitest';
import { killGroup, REPO_ROOT, startAir, type TAirProcess } from './support/air-process';
import { ensureBuilt } from './support/build';
import { createScratchDatabase } from './support/scratch-database';
import { serverRuntimePackages } from './support/runtime-packages';

/*
 * `npm start` with NODE_ENV=production (issue 11, item 6): it serves the built server and console
 * and loads nothing at run time but what `npm ci --omit=dev --workspace apps/server` installs (the
 * Dockerfile's run-time stage): no TypeScript loader, no Vite, no esbuild, no console package.
 * Production needs DATABASE_URL, so this file runs in the PostgreSQL pass (vitest.config.ts).
 */

const info = inject('airTestDb');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'air-production-'));
let air: TAirProcess | undefined;
let dropDatabase = async () => {};
afterAll(async () => {
  if (air) {
    killGroup(air.child);
    await air.exited;
  }
  await dropDatabase();
  rmSync(scratch, { recursive: true, force: true });
});

/** A module hook (loaded with --import) writing every package the process loads to a file. */
function writeLoadRecorder(file: string): string {
  const hook = path.join(scratch, 'record-packages.mjs');
  writeFileSync(
    hook,
    `import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    if (result.url.startsWith('file:') && result.url.includes('/node_modules/') && !seen.has(result.url)) {
      seen.add(result.url);
      appendFileSync(${JSON.stringify(file)}, result.url + '\\n');
    }
    return result;
  },
});
`,
  );
  return hook;
}

/** The lock location of the package a loaded file belongs to (the last node_modules in its path). */
function packageOf(url: string): string {
  const rel = path.relative(REPO_ROOT, fileURLToPath(url)).split(path.sep).join('/');
  return /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)/.exec(rel)?.[1] ?? rel;
}

it('serves the built console and API, loading only the server workspace’s run-time dependencies', async () => {
  if (info.kind !== 'postgres') throw new Error('needs AIR_TEST_DB=postgres (see vitest.config.ts)');
  await ensureBuilt();

  const database = await createScratchDatabase(info.url, 'air_prod');
  dropDatabase = database.drop;

  const loaded = path.join(scratch, 'loaded.txt');
  writeFileSync(loaded, '');
  air = await startAir('node', {
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    SECRET: 'production-test-secret-at-least-32-chars',
    DATA_DIR: path.join(scratch, 'data'),
    NODE_OPTIONS: `--import=${writeLoadRecorder(loaded)}`,
  });
  // An empty database: production migrates it itself (under the advisory lock).
  expect(air.output()).toMatch(/Applied \d+ database migrations?/);
  expect(air.output()).toContain('(postgres database');

  expect((await fetch(`${air.url}/healthz`)).status).toBe(200);
  const page = await fetch(`${air.url}/registry`);
  expect(page.status).toBe(200);
  const html = await page.text();
  // The built console (hashed assets), not Vite's dev page.
  expect(html).toMatch(/src="\/assets\/[\w-]+\.js"/);
  expect(html).not.toContain('/@vite/client');
  const script = /src="(\/assets\/[\w-]+\.js)"/.exec(html)![1]!;
  expect((await fetch(`${air.url}${script}`)).status).toBe(200);
  expect((await fetch(`${air.url}/api/nothing-here`)).status).toBe(404);

  const packages = [...new Set(readFileSync(loaded, 'utf8').split('\n').filter(Boolean).map(packageOf))];
  // The recorder saw the server's own packages load…
  expect(packages).toEqual(expect.arrayContaining(['node_modules/fastify', 'node_modules/pg']));
  // …and nothing outside what the production install holds (tsx, vite, esbuild, react, …).
  const runtime = serverRuntimePackages();
  expect(runtime.has('node_modules/tsx')).toBe(false);
  expect(packages.filter((location) => !runtime.has(location))).toEqual([]);

  process.kill(air.child.pid!, 'SIGTERM');
  expect(await air.exited).toBe(0);
}, 240_000);

/**
 * The files of the Dockerfile's last stage, laid out from this checkout: what its COPY lines take
 * (from the build stage: the built output; from the run-time stage: the package files it copies,
 * with this checkout's node_modules linked in; the test above checks which packages load).
 */
function dockerImageLayout(target: string): void {
  const stages = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8')
    .split(/^FROM /m)
    .slice(1);
  const copies = (stage: string) =>
    [...stage.matchAll(/^COPY (.+)$/gm)].map((match) => match[1]!.trim().split(/\s+/));
  const named = (name: string) => stages.find((stage) => stage.split('\n')[0]!.includes(` AS ${name}`));
  const place = (from: string, to: string) => {
    const destination = path.join(target, to);
    mkdirSync(path.dirname(destination), { recursive: true });
    cpSync(path.join(REPO_ROOT, from), destination, { recursive: true });
  };
  for (const args of copies(stages.at(-1)!)) {
    const [first, ...rest] = args;
    if (first === '--from=runtime-deps' && rest.join(' ') === '/app ./') {
      for (const files of copies(named('runtime-deps')!)) {
        const dest = files.at(-1)!;
        for (const file of files.slice(0, -1)) place(file, dest.endsWith('/') ? path.join(dest, file) : dest);
      }
      for (const dir of ['node_modules', 'apps/server/node_modules']) {
        if (existsSync(path.join(REPO_ROOT, dir)))
          symlinkSync(path.join(REPO_ROOT, dir), path.join(target, dir));
      }
    } else if (first === '--from=build' && rest.length === 2 && rest[0]!.startsWith('/app/')) {
      place(rest[0]!.slice('/app/'.length), rest[1]!);
    } else if (!first!.startsWith('--') && rest.length === 1) {
      place(first!, rest[0]!.endsWith('/') ? path.join(rest[0]!, path.basename(first!)) : rest[0]!);
    } else {
      throw new Error(`a COPY line this test does not know: COPY ${args.join(' ')}`);
    }
  }
}

it('starts from the files the Dockerfile copies into its image, and nothing else of the checkout', async () => {
  if (info.kind !== 'postgres') throw new Error('needs AIR_TEST_DB=postgres (see vitest.config.ts)');
  await ensureBuilt();
  const image = path.join(scratch, 'image');
  dockerImageLayout(image);
  expect(existsSync(path.join(image, 'apps/server/src'))).toBe(false);

  const database = await createScratchDatabase(info.url, 'air_image');
  const inImage = await startAir(
    'node',
    {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      SECRET: 'production-test-secret-at-least-32-chars',
      DATA_DIR: path.join(scratch, 'image-data'),
    },
    120_000,
    image,
  );
  try {
    // The migrations and the built-in plans (read at start) and the built console come from the image.
    expect(inImage.output()).toMatch(/Applied \d+ database migrations?/);
    expect((await fetch(`${inImage.url}/healthz`)).status).toBe(200);
    const page = await (await fetch(`${inImage.url}/signup`)).text();
    const script = /src="(\/assets\/[\w-]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${inImage.url}${script}`)).status).toBe(200);
    process.kill(inImage.child.pid!, 'SIGTERM');
    expect(await inImage.exited).toBe(0);
  } finally {
    killGroup(inImage.child);
    await database.drop();
  }
}, 240_000);
