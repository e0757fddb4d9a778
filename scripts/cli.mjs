// `npm run cli -- <command> [args]`: runs the compiled CLI (apps/server/dist/cli.js, built with the
// server by scripts/server-build.mjs) with Node alone, so it works after `npm ci --omit=dev`, where
// no TypeScript loader is installed. Outside production, where the build tools are installed, it
// first rebuilds the server when its sources changed, as `npm start` does (decision 046).
import { existsSync } from 'node:fs';

const cliEntry = new URL('../apps/server/dist/cli.js', import.meta.url);

/** True when esbuild (a dev dependency) can be loaded: a development install. */
function canBuild() {
  try {
    import.meta.resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

if (process.env.NODE_ENV !== 'production' && canBuild()) {
  const { ensureServerBuild } = await import('./server-build.mjs');
  // The build's progress line goes to stderr: the command's own output stays clean for a pipe.
  const log = console.log;
  console.log = (...args) => console.error(...args);
  try {
    await ensureServerBuild();
  } finally {
    console.log = log;
  }
}
if (!existsSync(cliEntry)) {
  console.error('AIR is not built: run `npm run build` before `npm run cli`.');
  process.exit(1);
}
await import(cliEntry.href);
