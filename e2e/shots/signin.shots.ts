import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../support/fixtures';

/* Pictures of the sign-in family for a person to look at (`npm run screenshots`, not `npm test`). */

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/signin/', import.meta.url));

test('screenshots of the sign-in family at 390 and 1280 px, light and dark', async ({ page }) => {
  test.setTimeout(90_000);
  mkdirSync(SHOTS, { recursive: true });
  const pages: [string, string, string][] = [
    ['signin', '/signin', 'Sign in'],
    ['otp', '/signin/otp?token=example', 'Two-factor verification'],
    ['social-failed', '/signin/social?provider=google&error=access_denied', 'Something Went Wrong'],
    ['magic-invalid', '/magic', 'Magic Link Is Invalid'],
    ['forgot', '/forgotpassword', 'Forgot password'],
    ['reset', '/resetpassword?token=example&email=ada%40example.test', 'Reset password'],
  ];
  // No OpenID provider is configured on the test server; the buttons are pictured with a stand-in list.
  await page.route('**/api/auth/providers', (route) =>
    route.fulfill({
      json: {
        data: [
          { name: 'google', label: 'Google' },
          { name: 'github', label: 'GitHub' },
        ],
      },
    }),
  );
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
    for (const theme of ['light', 'dark']) {
      await page.addInitScript((t) => localStorage.setItem('air.theme', t), theme);
      for (const [name, path, heading] of pages) {
        await page.goto(path);
        await expect(page.getByRole('heading', { name: heading })).toBeVisible();
        await page.screenshot({ path: `${SHOTS}${name}-${width}-${theme}.png`, fullPage: true });
      }
      await page.goto('/signin');
      await expect(page.getByRole('link', { name: 'Continue with GitHub' })).toBeVisible();
      await page.getByRole('button', { name: 'Sign in with a magic link instead' }).click();
      await page.getByLabel('Email').fill('ada@example.test');
      await page.getByRole('button', { name: 'Send magic link' }).click();
      await expect(page.getByText('Check your email')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}magic-sent-${width}-${theme}.png`, fullPage: true });
    }
  }
});
