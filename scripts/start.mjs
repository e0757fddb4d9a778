// `npm start`: run the built server (apps/server/dist, plain JavaScript) in this process; it serves
// the built console (apps/web/dist). Outside production, builds whichever of the two is missing or
// older than its sources first, so `npm install && npm start` works on a fresh clone. With
// NODE_ENV=production it never builds (no dev dependency at run time): `npm run build` made both.
// The server handles SIGINT/SIGTERM itself; package.json `exec`s this script so npm's signal
// reaches it directly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

// Memory of a small install (decision 015).
//
// glibc's allocator reads its settings when the process starts, so on Linux this script runs
// itself once more in place (`process.execve`: the same process id, so `exec`, Docker's PID 1 and
// the bench keep their process) with them set. Values already in the environment win; setting
// AIR_NODE_TUNED skips this step.
//   MALLOC_ARENA_MAX=2          two malloc arenas instead of up to 8 per core: the arenas of the
//                               threads that compile at start-up (JavaScript, PGlite's WASM) kept
//                               30-50 MB that was no longer in use
//   MALLOC_MMAP_THRESHOLD_=128K glibc's initial values, set so that glibc does not raise them
//   MALLOC_TRIM_THRESHOLD_=128K (it does when a large block is freed; then the free end of a heap
//                               is no longer given back to the system)
if (!process.env.AIR_NODE_TUNED && process.platform === 'linux' && typeof process.execve === 'function') {
  const env = {
    MALLOC_ARENA_MAX: '2',
    MALLOC_MMAP_THRESHOLD_: '131072',
    MALLOC_TRIM_THRESHOLD_: '131072',
    ...process.env,
    AIR_NODE_TUNED: '1',
  };
  const script = fileURLToPath(import.meta.url);
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, script, ...process.argv.slice(2)],
    env,
  );
}

// Start-up leaves garbage no collection removes by itself while the server idles: V8's young
// generation stays at the size start-up grew it to, and old space holds what loading the modules
// and the database left. One memory-reducing collection ("last resort": compacting, shrinking the
// young generation) once the server listens gives it back. `gc` comes from --expose-gc, set here at
// run time so that it is not a global of the server's own context; threads started later (the
// embedded database's, which collects the same way once idle: db/embedded-worker.mjs) have it.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');
const LAST_RESORT = { type: 'major', execution: 'sync', flavor: 'last-resort' };

const serverEntry = new URL('../apps/server/dist/server.js', import.meta.url);
const consoleIndex = new URL('../apps/web/dist/index.html', import.meta.url);

if (process.env.NODE_ENV === 'production') {
  if (!existsSync(serverEntry) || !existsSync(consoleIndex)) {
    console.error('AIR is not built: run `npm run build` before `npm start` with NODE_ENV=production.');
    process.exit(1);
  }
} else {
  const [{ ensureServerBuild }, { ensureConsoleBuild }] = await Promise.all([
    import('./server-build.mjs'),
    import('./console-build.mjs'),
  ]);
  await ensureServerBuild();
  await ensureConsoleBuild();
}
await import(serverEntry.href); // resolves once the server listens
setTimeout(() => collectGarbage(LAST_RESORT), 1000).unref();
