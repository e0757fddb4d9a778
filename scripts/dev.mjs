// `npm run dev`: Vite with hot reload on :5173 (proxying the API) and the server in watch mode on :3000.
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
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop());
