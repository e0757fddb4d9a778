// Starts what the browser tests run against: a loopback SMTP server that keeps every mail it
// receives (listed as JSON over HTTP for the tests), then AIR itself with SMTP_URL pointing at it
// and a fresh data folder.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMailbox } from './mailbox.mjs';

const port = Number(process.env.E2E_PORT ?? 3199);
const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'air-e2e-'));
const mailbox = await startMailbox({ smtpPort: port + 2, httpPort: port + 1 });
// Everything the server writes is kept for the last test (audit/server-log.spec.ts), which fails on
// an error or an unhandled rejection logged during the run. Standard error also goes on to the
// terminal.
const logPath = join(root, 'test-results', 'server.log');
mkdirSync(join(root, 'test-results'), { recursive: true });
const log = createWriteStream(logPath);

const server = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${port + 2}`,
    MAIL_FROM: 'AIR <air@example.test>',
    SUPPORT_EMAIL: 'support@example.test',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
  },
});
server.stdout.pipe(log, { end: false });
server.stderr.on('data', (chunk) => {
  log.write(chunk);
  process.stderr.write(chunk);
});

const stop = async () => {
  server.kill('SIGTERM');
  await mailbox.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  if (code) process.exit(code);
});
