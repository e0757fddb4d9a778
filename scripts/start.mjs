// `npm start`: run the built server (apps/server/dist, plain JavaScript) in this process; it serves
// the built console (apps/web/dist). Outside production, builds whichever of the two is missing or
// older than its sources first, so `npm install && npm start` works on a fresh clone. With
// NODE_ENV=production it never builds (no dev dependency at run time): `npm run build` made both.
// The server handles SIGINT/SIGTERM itself; package.json `exec`s this script so npm's signal
// reaches it directly.
import { existsSync } from 'node:fs';

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
await import(serverEntry.href);
