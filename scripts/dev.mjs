// `npm run dev`: Vite with hot reload on :5173 (proxying the API) and the server in watch mode on :3000.
//
// Stopping: SIGINT, SIGTERM and SIGHUP to this process reach each child exactly once; this process
// exits when both children have, with the first failure's code. The children run in process groups
// of their own, so Ctrl-C in a terminal (which signals the whole foreground group, and npm forwards
// it once more) is not delivered twice: tsx's watcher takes a second signal as "force kill" and
// would cut the server's graceful shutdown short. Their stdin is closed for the same reason (a
// background group reading the terminal is stopped by it).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants } from 'node:os';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'apps/web');
const viteBin = join(
  dirname(createRequire(join(web, 'package.json')).resolve('vite/package.json')),
  'bin/vite.js',
);
const start = (args, cwd) =>
  spawn(process.execPath, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
const children = [
  start(['node_modules/tsx/dist/cli.mjs', 'watch', 'apps/server/src/server.ts'], root),
  start([viteBin], web),
];
const running = (child) => child.exitCode === null && child.signalCode === null;
const signalled = new Set();
let exitCode = 0;
const stop = (signal = 'SIGTERM') => {
  for (const child of children) {
    if (!running(child) || signalled.has(child)) continue;
    signalled.add(child);
    child.kill(signal);
  }
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
// A closed terminal: its foreground group (this process) gets SIGHUP, the children's groups do not.
process.on('SIGHUP', () => stop('SIGTERM'));
// Leaving for any other reason (an error in this script) leaves no child behind either.
process.on('exit', () => stop('SIGTERM'));
// A child asked to stop may end by the signal or exit with 128 + its number (Vite does): no failure.
const stoppedCodes = new Set([128 + constants.signals.SIGINT, 128 + constants.signals.SIGTERM]);
for (const child of children) {
  child.on('exit', (code, signal) => {
    const asked = signalled.has(child);
    if (!exitCode && code && !(asked && stoppedCodes.has(code))) exitCode = code;
    if (!exitCode && signal && !(asked && (signal === 'SIGTERM' || signal === 'SIGINT'))) exitCode = 1;
    // One side alone is no dev setup: stop the other, then leave once both are gone.
    stop();
    if (!children.some(running)) process.exit(exitCode);
  });
}
