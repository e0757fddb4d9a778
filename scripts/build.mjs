// `npm run build`: compile the server and the console once (apps/server/dist, apps/web/dist).
import { ensureConsoleBuild } from './console-build.mjs';
import { ensureServerBuild } from './server-build.mjs';

await ensureServerBuild({ force: true });
await ensureConsoleBuild({ force: true });
