import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../support/fixtures';
import { createUser, seedTraffic, startUpstream, useSessionOf } from '../support/users';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/insight/', import.meta.url));
const stamp = Date.now().toString(36);

test('usage, help and the playground at 390 and 1280 px, light and dark', async ({ browser, request }) => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  const upstream = await startUpstream();
  try {
    const eve = await createUser(request, 'Eve Shots', 'insight-shots');
    const { endpoints } = await seedTraffic(request, eve, upstream.url, `shots-${stamp}`);
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [390, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
        await useSessionOf(page, eve, theme);
        await page.goto('/account/usage');
        await expect(page.getByTestId('usage-totals')).toContainText(/Calls\d/);
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: `${SHOTS}usage-${width}-${theme}.png`, fullPage: true });
        await page.goto('/help');
        await page.getByRole('searchbox').fill('stream');
        await page.screenshot({ path: `${SHOTS}help-${width}-${theme}.png`, fullPage: true });
        await page.goto(`/aiendpoints/${endpoints.ok}`);
        await page.getByRole('tab', { name: 'Try it' }).click();
        await page.getByLabel('User message').fill('Say something');
        await page.getByRole('button', { name: 'Send' }).click();
        await expect(page.getByTestId('playground-answer')).toHaveText('Streaming answer from the mock.');
        await page.screenshot({ path: `${SHOTS}playground-${width}-${theme}.png`, fullPage: true });
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  } finally {
    upstream.server.close();
  }
});
