// `npm run lighthouse`: Lighthouse scores of the built console, not part of `npm test`. Builds the
// server and the console when either is missing or stale, starts the server on its own port and data
// folder, signs up a user through the API (verified, free plan, onboarded, a key and a few calls so
// the usage pages have rows), then runs Lighthouse (12.2.3) in the machine's Chromium on /signin
// (signed out), /dashboard, /account/usage and /account/upgrade (signed in) with the desktop and
// mobile presets, and prints performance, accessibility and best practices. Scores vary with the
// machine's load: read them on a quiet machine. Options (environment):
//   LIGHTHOUSE_PORT   the server's port (default 3290)
//   CHROMIUM_PATH     the browser (default /usr/bin/chromium)
//   LIGHTHOUSE_PATHS  space-separated paths instead of the four above (a path other than the three
//                     signed-in ones is audited signed out)
//   LIGHTHOUSE_PRESETS  space-separated presets instead of both (`desktop`, `mobile`)
//   LIGHTHOUSE_THROTTLING  `devtools` to throttle the real load instead of Lighthouse's default
//                     simulation from an unthrottled one (`simulate`)
//   LIGHTHOUSE_JSON   a file to write every report's scores to, as JSON
//   LIGHTHOUSE_REPORTS a folder to write each whole report into (Lighthouse's JSON: the LCP element,
//                     the request chain, every audit), to see where a page's time goes
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.LIGHTHOUSE_PORT ?? 3290);
const origin = `http://127.0.0.1:${port}`;
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PUBLIC_PATHS = ['/signin'];
const SIGNED_IN_PATHS = ['/dashboard', '/account/usage', '/account/upgrade'];
const chosen = process.env.LIGHTHOUSE_PATHS?.split(/\s+/).filter(Boolean);
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const ALL_PRESETS = [
  { name: 'desktop', config: desktopConfig },
  // Lighthouse's default configuration is the mobile one (a mid-range phone, throttled).
  { name: 'mobile', config: undefined },
];
const chosenPresets = process.env.LIGHTHOUSE_PRESETS?.split(/\s+/).filter(Boolean);
const PRESETS = chosenPresets ? ALL_PRESETS.filter((p) => chosenPresets.includes(p.name)) : ALL_PRESETS;

const [{ ensureServerBuild }, { ensureConsoleBuild }] = await Promise.all([
  import('./server-build.mjs'),
  import('./console-build.mjs'),
]);
await ensureServerBuild();
await ensureConsoleBuild();

const dataDir = mkdtempSync(join(tmpdir(), 'air-lighthouse-'));
const server = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: origin,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
  },
});
let chrome;
const stop = () => {
  server.kill('SIGTERM');
  chrome?.kill();
};
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});

async function waitForServer() {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server stopped (exit code ${server.exitCode})`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not answer on ${origin} within 2 minutes`);
}

async function api(method, path, body, token) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok && !(path.startsWith('/api/v1') && res.status === 404))
    throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A verified owner on the free plan, onboarded, with a key and a few gateway calls. */
async function seedUser() {
  const email = `lighthouse-${Date.now().toString(36)}@example.test`;
  const signedUp = await api('POST', '/api/account', {
    name: 'Lena Lighthouse',
    email,
    password: 'Lighthouse-1!',
    confirm_password: '',
  });
  const token = signedUp.data.token;
  // Without SMTP_URL the mail is in the dev outbox.
  const mails = await api('GET', '/dev/mail.json');
  const link = mails.data.find((mail) => mail.to === email)?.links.find((l) => l.includes('/signup/verify'));
  if (!link) throw new Error('no verification mail in the dev outbox');
  await api('POST', '/api/user/verify', { token: new URL(link).searchParams.get('token') }, token);
  await api('POST', '/api/account/plan', { plan: 'free' }, token);
  await api('PATCH', '/api/user', { onboarded: true }, token);
  const key = await api('POST', '/api/key', { name: 'Lighthouse', scope: ['gateway.invoke'] }, token);
  for (let i = 0; i < 12; i++) {
    await fetch(`${origin}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.data.full_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: `lighthouse/missing-${i % 3}`,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    });
  }
  const user = await api('GET', '/api/user', undefined, token);
  return { token, user: user.data };
}

/** Puts the session in the browser's local storage, as a sign-in would. */
async function signIn(session) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const page = await browser.newPage();
  await page.goto(`${origin}/healthz`);
  await page.evaluate(
    ([token, user]) => {
      localStorage.setItem('air.token', token);
      localStorage.setItem('air.user', user);
    },
    [session.token, JSON.stringify(session.user)],
  );
  await page.close();
  await browser.disconnect();
}

async function audit(path, preset, keepStorage) {
  const result = await lighthouse(
    `${origin}${path}`,
    {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      // The session set above stays for the signed-in pages.
      disableStorageReset: keepStorage,
      ...(process.env.LIGHTHOUSE_THROTTLING ? { throttlingMethod: process.env.LIGHTHOUSE_THROTTLING } : {}),
    },
    preset.config,
  );
  const lhr = result.lhr;
  if (process.env.LIGHTHOUSE_REPORTS) {
    mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
    const name = `${path.replace(/\W+/g, '_').replace(/^_/, '')}-${preset.name}.json`;
    writeFileSync(join(process.env.LIGHTHOUSE_REPORTS, name), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`${path} (${preset.name}): ${lhr.runtimeError.message}`);
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
    .map((a) => a.id);
  return {
    path,
    preset: preset.name,
    landed: new URL(lhr.finalDisplayedUrl).pathname,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcpMs: Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? 0),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
    cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    failing,
  };
}

const rows = [];
let failed = false;
try {
  await waitForServer();
  const session = await seedUser();
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  const publicPaths = chosen ? chosen.filter((p) => !SIGNED_IN_PATHS.includes(p)) : PUBLIC_PATHS;
  const signedInPaths = chosen ? chosen.filter((p) => SIGNED_IN_PATHS.includes(p)) : SIGNED_IN_PATHS;
  for (const preset of PRESETS) {
    for (const path of publicPaths) rows.push(await audit(path, preset, false));
  }
  await signIn(session);
  for (const preset of PRESETS) {
    for (const path of signedInPaths) rows.push(await audit(path, preset, true));
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  stop();
  rmSync(dataDir, { recursive: true, force: true });
}

if (rows.length) {
  console.log(
    '\npath               preset   perf  a11y  best  FCP ms  LCP ms  TBT ms    CLS  (landed on; binary audits not met)',
  );
  for (const r of rows) {
    const landed = r.landed === r.path ? '' : ` landed on ${r.landed}`;
    console.log(
      `${r.path.padEnd(18)} ${r.preset.padEnd(8)} ${String(r.performance).padStart(4)}  ${String(r.accessibility).padStart(4)}  ${String(r.bestPractices).padStart(4)}  ${String(r.fcpMs).padStart(6)}  ${String(r.lcpMs).padStart(6)}  ${String(r.tbtMs).padStart(6)}  ${r.cls.toFixed(3).padStart(5)}${landed}${r.failing.length ? `  ${r.failing.join(', ')}` : ''}`,
    );
  }
  console.log(
    '\nTargets on a quiet machine: performance 95 desktop / 90 mobile, accessibility and best practices 100.',
  );
  if (process.env.LIGHTHOUSE_JSON) writeFileSync(process.env.LIGHTHOUSE_JSON, JSON.stringify(rows, null, 2));
}
process.exit(failed ? 1 : 0);
