// Builds what `npm start` would build first in the checkout at argv[2] (nothing when its build is
// current), with that checkout's own build scripts, so the bench can do it before measuring AIR's
// first start: a fresh clone's first `npm start` runs vite and esbuild once, and their memory is
// no part of the server's (decision 015).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? '.');
const script = (name) => import(pathToFileURL(path.join(root, 'scripts', name)).href);
const [server, web] = await Promise.all([script('server-build.mjs'), script('console-build.mjs')]);
await server.ensureServerBuild();
await web.ensureConsoleBuild();
