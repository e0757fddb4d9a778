import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf } from '../support/users';

/*
 * Pictures for a person to look at (`npm run screenshots`, not `npm test`): the banner of a
 * renewal waiting for the card holder's authentication ("Authorize payment"), and the toast after
 * it is authorized next to the feedback button, at 390 and 1280 px, light and dark. Each variant has
 * its own owner; the shots server's billing clock moves a month on for each.
 */

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/billing-action/', import.meta.url));

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

for (const width of [390, 1280]) {
  for (const theme of ['light', 'dark'] as const) {
    test(`authorization banner and toast, ${width} px, ${theme}`, async ({ page, request }) => {
      test.setTimeout(120_000);
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await useSessionOf(
        page,
        await createUser(request, 'Ada Lovelace', 'shots-action', { plan: 'team' }),
        theme,
      );
      await page.goto('/account/billing');
      await page.getByRole('tab', { name: 'Card' }).click();
      await fillCard(page, '4000 0025 0000 3155');
      await page.getByRole('button', { name: 'Update card' }).click();
      await expect(page.getByText('Visa ending in 3155')).toBeVisible();
      const clock = await request.post('/api/dev/billing-clock', { data: { advance_ms: 31 * 86_400_000 } });
      expect(clock.status(), await clock.text()).toBe(200);

      await page.goto('/account/billing');
      const banner = page.getByRole('alert').filter({ hasText: 'Authorization needed' });
      await expect(banner).toBeVisible();
      await page.screenshot({ path: `${SHOTS}banner-${width}-${theme}.png`, fullPage: true });
      await banner.getByRole('button', { name: 'Authorize payment' }).click();
      const dialog = page.getByRole('dialog', { name: 'Authenticate payment' });
      await expect(dialog).toBeVisible();
      // Past the open and toast animations, so the pictures show them settled.
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${SHOTS}dialog-${width}-${theme}.png` });
      await dialog.getByRole('button', { name: 'Complete authentication' }).click();
      await expect(
        page.getByText('Your payment is authorized and your subscription is active again.', { exact: true }),
      ).toBeVisible();
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${SHOTS}authorized-${width}-${theme}.png` });
    });
  }
}
