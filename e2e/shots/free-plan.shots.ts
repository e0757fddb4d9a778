import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../support/fixtures';
import { createUser } from '../support/users';

/*
 * Pictures for a person to look at (`npm run screenshots`): an owner on the free plan, whose
 * billing page has the Card tab (decision 032), and the usage page with its custom period form
 * open, at 390 and 1280 px, light and dark.
 */

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/free-plan/', import.meta.url));

test('the free plan: the billing Card tab and the usage page custom period', async ({ browser, request }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const owner = await createUser(request, 'Fay Free', 'shots-free');
  for (const width of [390, 1280]) {
    for (const theme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
      await context.addInitScript(
        ([token, user, mode]) => {
          localStorage.setItem('air.token', token);
          localStorage.setItem('air.user', user);
          localStorage.setItem('air.theme', mode);
        },
        [owner.token, JSON.stringify(owner.user), theme] as const,
      );
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (msg) => msg.type() === 'error' && errors.push(`${page.url()}: ${msg.text()}`));
      await page.goto('/account/billing');
      await page.getByRole('tab', { name: 'Card' }).click();
      await expect(page.getByText('No card on file.')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}billing-card-${width}-${theme}.png`, fullPage: true });
      await page.goto('/account/usage');
      await page.getByLabel('Period').selectOption('custom');
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${SHOTS}usage-custom-${width}-${theme}.png`, fullPage: true });
      expect(errors, 'console errors').toEqual([]);
      await context.close();
    }
  }
});
