import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../support/fixtures';
import { createUser, seedTraffic, startUpstream, useSessionOf } from '../support/users';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/dashboard/', import.meta.url));
const stamp = Date.now().toString(36);

test('dashboard and registry at 390 dark and 1280 light, with traffic and new', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  const upstream = await startUpstream();
  try {
    const busy = await createUser(request, 'Bo Shots', 'dash-shots');
    await seedTraffic(request, busy, upstream.url, `dshots-${stamp}`);
    const fresh = await createUser(request, 'Nia New', 'dash-shots-new');
    for (const [theme, width] of [
      ['dark', 390],
      ['light', 1280],
    ] as const) {
      for (const [who, tag] of [
        [busy, 'busy'],
        [fresh, 'new'],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
        await useSessionOf(page, who, theme);
        await page.goto('/dashboard');
        await expect(page.getByTestId('calls-today')).toBeVisible();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(500);
        await page.screenshot({ path: `${SHOTS}dashboard-${tag}-${width}-${theme}.png`, fullPage: true });
        await page.goto('/registry');
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: `${SHOTS}registry-${tag}-${width}-${theme}.png`, fullPage: true });
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  } finally {
    upstream.server.close();
  }
});
