// `npm run dev`: Vite with hot reload on :5173 (proxying the API) and the server in watch mode on :3000.
// SIGINT/SIGTERM go to both children; this process exits when both have, with the first failure's code.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'apps/web');
const viteBin = join(
  dirname(createRequire(join(web, 'package.json')).resolve('vite/package.json')),
  'bin/vite.js',
);
const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn(process.execPath, [viteBin], { cwd: web, stdio: 'inherit' }),
];
let exitCode = 0;
const stop = (signal = 'SIGTERM') => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children) {
  child.on('exit', (code, signal) => {
    if (!exitCode && code) exitCode = code;
    if (!exitCode && signal && signal !== 'SIGTERM' && signal !== 'SIGINT') exitCode = 1;
    // One side alone is no dev setup: stop the other, then leave once both are gone.
    stop();
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
}
