import type { Page, Route } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createUser, PASSWORD } from '../support/users';

/*
 * The static sign-in page (decision 034): the server sends `/` and `/signin` with the page's
 * markup already in the HTML (rendered at build time from the same components), so it paints
 * before the bundle runs; the page then takes over without moving and without losing what was
 * typed meanwhile.
 */

/** Holds the console's entry script until `release` is called: the page stays the static one. */
async function holdBundle(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('without JavaScript, / and /signin show the sign-in page from the HTML', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const url of ['/signin', '/']) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
    // The other language is in the HTML too, hidden.
    await expect(page.locator('h1', { hasText: 'Iniciar sesión' })).toBeHidden();
  }
  // Only those two: the other pages are the bare console until the bundle runs.
  await page.goto('/signup');
  await expect(page.locator('h1')).toHaveCount(0);
  await context.close();
});

test('before the bundle runs, the page is in the stored language and theme', async ({ browser }) => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    localStorage.setItem('air.locale', 'es');
    localStorage.setItem('air.theme', 'dark');
  });
  const page = await context.newPage();
  const release = await holdBundle(page);
  await page.goto('/signin', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeHidden();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.locator('#root')).toBeEmpty();
  release();
  await context.close();
});

test('the page takes over from the static one in place, keeping what was typed and the focus', async ({
  page,
  request,
}) => {
  const who = await createUser(request, 'Early Typist', 'shell-early');
  const release = await holdBundle(page);
  await page.goto('/signin', { waitUntil: 'commit' });
  const shell = page.locator('#signin-shell');
  await expect(shell.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  const boxes = async () => ({
    heading: await page.getByRole('heading', { level: 1 }).boundingBox(),
    email: await page.getByLabel('Email').boundingBox(),
    forgot: await page.getByRole('link', { name: 'Forgot your password?' }).boundingBox(),
  });
  const before = await boxes();
  await shell.getByLabel('Email').fill(who.email);
  await shell.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await shell.getByLabel('Email').focus();

  release();
  await expect(shell).toHaveCount(0);
  const root = page.locator('#root');
  await expect(root.getByLabel('Email')).toHaveValue(who.email);
  await expect(root.getByLabel('Password', { exact: true })).toHaveValue(PASSWORD);
  await expect(root.getByLabel('Email')).toBeFocused();
  expect(await boxes()).toEqual(before);

  // The values reached the form's state: signing in uses them.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
