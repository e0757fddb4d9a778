import { test, expect } from '../support/fixtures';

test.describe('console shell', () => {
  test('the console loads the sign-in page with the auth layout', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#root')).not.toBeEmpty();
    await expect(page.getByLabel('Language')).toBeVisible();
    await expect(page).toHaveTitle(/AIR/);
  });

  test('an unknown path shows the 404 page with a way back to the dashboard', async ({ page }) => {
    await page.goto('/this/does/not/exist');
    await expect(page.getByText("Oops, the page you're looking for doesn't exist.")).toBeVisible();
    const back = page.getByRole('link', { name: /dashboard/i });
    await expect(back).toHaveAttribute('href', '/dashboard');
  });

  test('an unknown API path is a JSON 404, not the console', async ({ request }) => {
    const res = await request.get('/api/does-not-exist');
    expect(res.status()).toBe(404);
    expect(await res.json()).toEqual({ code: 'not_found', message: expect.any(String) });
  });

  test('the language switch applies at once and persists across reload', async ({ page }) => {
    await page.goto('/signin');
    await page.getByLabel('Language').selectOption('es');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByLabel('Idioma')).toBeVisible();
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByLabel('Idioma')).toHaveValue('es');
    await page.goto('/nope');
    await expect(page.getByText('Vaya, la página que buscas no existe.')).toBeVisible();
  });

  test('the theme switch applies at once and persists across reload', async ({ page }) => {
    await page.goto('/signin');
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Dark mode' }).click();
    await expect(page.locator('html')).toHaveClass(/dark/);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/dark/);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
    await page.getByRole('button', { name: 'Light mode' }).click();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
  });

  test('a page that needs a session sends a visitor to sign in', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/signin$/);
  });

  test('the API documentation is served', async ({ request }) => {
    const res = await request.get('/api/docs/json');
    expect(res.status()).toBe(200);
    const doc = await res.json();
    expect(doc.openapi ?? doc.swagger).toBeTruthy();
  });
});
