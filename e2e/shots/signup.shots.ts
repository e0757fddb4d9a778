import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createUser, PASSWORD, type TUser } from '../support/users';

/*
 * Pictures of the sign-up, onboarding and account pages for a person to look at
 * (`npm run screenshots`, not `npm test`).
 */

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/signup/', import.meta.url));

type TSignedIn = Pick<TUser, 'token' | 'user'>;

/** Puts a session in local storage before the console loads, as a sign-in would. */
async function useSessionOf(page: Page, session: TSignedIn, theme: 'light' | 'dark') {
  await page.addInitScript(
    ([token, user, mode]) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('air.token', token);
        localStorage.setItem('air.user', user);
        sessionStorage.setItem('seeded', '1');
      }
      localStorage.setItem('air.theme', mode);
    },
    [session.token, JSON.stringify(session.user), theme] as const,
  );
}

test('screenshots of the sign-up, onboarding and account pages', async ({ browser, request }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const ready = await createUser(request, 'Ada Lovelace', 'signup-shots');
  const fresh = `signup-shots-fresh-${Date.now()}@example.test`;
  const signUp = await request.post('/api/account', {
    data: { name: 'New Person', email: fresh, password: PASSWORD, confirm_password: '' },
  });
  const freshToken = ((await signUp.json()) as { data: { token: string } }).data.token;
  const freshUser = (
    (await (
      await request.get('/api/user', { headers: { Authorization: `Bearer ${freshToken}` } })
    ).json()) as { data: Record<string, unknown> }
  ).data;

  const pages: {
    name: string;
    path: string;
    session: TSignedIn | null;
    before?: (page: Page) => Promise<unknown>;
    ready?: (page: Page) => Promise<void>;
  }[] = [
    { name: 'signup', path: '/signup', session: null },
    { name: 'verify', path: '/signup/verify', session: { token: freshToken, user: freshUser } },
    {
      name: 'plan',
      path: '/signup/plan',
      session: { ...ready, user: { ...ready.user, plan: null } },
      ready: (page) => expect(page.getByRole('radio', { name: /Free/ })).toBeVisible(),
    },
    {
      name: 'welcome',
      path: '/welcome',
      session: { ...ready, user: { ...ready.user, onboarded: false, duplicate_user: true } },
      // The load-time auth check refreshes the user; keep the duplicate flag so the warning shows.
      before: (page) =>
        page.route('**/api/auth', async (route) => {
          const response = await route.fetch();
          const body = (await response.json()) as { data: Record<string, unknown> };
          await route.fulfill({
            response,
            json: { data: { ...body.data, duplicate_user: true, onboarded: false } },
          });
        }),
      ready: (page) =>
        expect(page.getByRole('heading', { name: 'You already have a user account' })).toBeVisible(),
    },
    { name: 'account', path: '/account', session: ready },
    {
      name: 'profile',
      path: '/account/profile',
      session: ready,
      ready: (page) => expect(page.getByLabel('Account name')).toBeVisible(),
    },
    { name: 'password', path: '/account/password', session: ready },
    {
      name: '2fa',
      path: '/account/2fa',
      session: ready,
      ready: async (page) => {
        await page.getByRole('switch').click();
        await expect(page.getByTestId('two-factor-secret')).toBeVisible();
      },
    },
    {
      name: 'notifications',
      path: '/account/notifications',
      session: ready,
      ready: (page) => expect(page.getByRole('switch', { name: 'New sign-in' })).toBeVisible(),
    },
  ];

  for (const theme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      for (const entry of pages) {
        const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
        if (entry.session) await useSessionOf(page, entry.session, theme);
        else await page.addInitScript((mode) => localStorage.setItem('air.theme', mode), theme);
        if (entry.before) await entry.before(page);
        await page.goto(entry.path);
        await expect(page).toHaveURL(new RegExp(`${entry.path.replace(/\//g, '\\/')}$`));
        await expect(page.locator('h1').first()).toBeVisible();
        if (entry.ready) await entry.ready(page);
        await page.waitForTimeout(150);
        await page.screenshot({ path: `${SHOTS}${entry.name}-${width}-${theme}.png`, fullPage: true });
        expect(errors, `console errors on ${entry.path}`).toEqual([]);
        await context.close();
      }
    }
  }
});
