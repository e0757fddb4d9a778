import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'h21-')), SECRET: 'x'.repeat(40), PORT: '42101', LOG_LEVEL: 'warn', ...process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {} });
const app = await buildApp(config);
await app.listen({ port: 42101, host: '127.0.0.1' });
console.log('listening');
