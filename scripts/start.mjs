// `npm start`: build the console when its sources changed since the last build, then run the
// server in this process (TypeScript through tsx, no separate compile step).
import { register } from 'tsx/esm/api';
import { ensureConsoleBuild } from './console-build.mjs';

await ensureConsoleBuild();
register();
await import('../apps/server/src/server.ts');
