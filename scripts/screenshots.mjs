// Screenshots of console pages for a person to look at: both themes, phone (390 px) and desktop
// (1280 px). Signs up a real user against a running server (dev outbox), verifies, picks free.
//   node scripts/screenshots.mjs http://127.0.0.1:3000 /tmp/shots /dashboard /registry …
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../e2e/package.json', import.meta.url));
const { chromium } = require('@playwright/test');
const [base = 'http://127.0.0.1:3000', out = '/tmp/shots', ...paths] = process.argv.slice(2);
mkdirSync(out, { recursive: true });

async function call(method, path, body, token) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const email = `shots-${Date.now()}@example.test`;
const password = 'Screenshots-pass!1';
const signUp = await call('POST', '/api/account', {
  name: 'Ada Lovelace',
  email,
  password,
  confirm_password: '',
});
let token = signUp.data.token;
const mails = (await call('GET', '/dev/mail.json')).data ?? [];
const verifyLink = mails
  .flatMap((m) => m.links ?? [])
  .find((l) => l.includes('/signup/verify') && l.includes('token='));
if (verifyLink)
  await call('POST', '/api/user/verify', { token: new URL(verifyLink).searchParams.get('token') }, token);
await call('POST', '/api/account/plan', { plan: 'free' }, token);
await call('PATCH', '/api/user', { onboarded: true }, token);
const auth = await call('POST', '/api/auth', { email, password });
token = auth.data.token;
const user = (await call('GET', '/api/auth', undefined, token)).data;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-background-networking'],
});
for (const width of [390, 1280]) {
  for (const theme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
    await context.addInitScript(
      ([t, u, th]) => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem('air.token', t);
          localStorage.setItem('air.user', JSON.stringify(u));
          localStorage.setItem('air.theme', th);
          sessionStorage.setItem('seeded', '1');
        }
      },
      [token, { ...user, token }, theme],
    );
    const page = await context.newPage();
    page.on(
      'console',
      (m) => m.type() === 'error' && console.log(`console error on ${page.url()}: ${m.text()}`),
    );
    for (const path of paths) {
      await page.goto(base + path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      const name = `${path.replace(/[^a-z0-9]+/gi, '_') || 'root'}-${width}-${theme}.png`;
      await page.screenshot({ path: `${out}/${name}`, fullPage: false });
      console.log(`${out}/${name}`);
    }
    await context.close();
  }
}
await browser.close();
