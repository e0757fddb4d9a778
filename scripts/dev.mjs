// `npm run dev`: Vite with hot reload on :5173 (proxying the API) and the server in watch mode on :3000.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn(process.execPath, ['../../node_modules/vite/bin/vite.js'], { cwd: `${root}/apps/web`, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop());
