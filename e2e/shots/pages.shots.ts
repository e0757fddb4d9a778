import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../support/fixtures';
import { createUser } from '../support/users';

/*
 * Pictures for a person to look at (`npm run screenshots`, not `npm test`): the billing tabs (Plan,
 * Card, Invoices) of an owner on the paid team plan, then any console paths given to the script
 * (`npm run screenshots -- /dashboard /registry`, passed on as SHOTS_PATHS), at 390 and 1280 px,
 * light and dark, in SHOTS_LOCALE (en, the default, or es). The owner has a key and two endpoints,
 * so tables show rows and actions rather than their empty message; `:endpoint` in a path is the
 * model endpoint's id (`npm run screenshots -- /aiendpoints/:endpoint`).
 */

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/pages/', import.meta.url));
const locale = process.env.SHOTS_LOCALE === 'es' ? 'es' : 'en';
const paths = (process.env.SHOTS_PATHS ?? '').split(/\s+/).filter(Boolean);
const TABS = locale === 'es' ? ['Plan', 'Tarjeta', 'Facturas'] : ['Plan', 'Card', 'Invoices'];

test(`billing tabs and the asked pages (${locale}) at 390 and 1280 px, light and dark`, async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  const owner = await createUser(request, 'Ada Lovelace', 'shots', { plan: 'team' });
  const stamp = Date.now().toString(36);
  let endpointId = '';
  for (const type of ['agent', 'model']) {
    const created = await request.post('/api/aiendpoint', {
      headers: owner.headers,
      data: {
        name: `Shots ${type}`,
        route_name: `shots-${stamp}/${type}`,
        route_endpoint: 'https://upstream.example.test/v1/chat/completions',
        route_type: type,
        ...(type === 'model' ? { model_id: 'meta-llama/llama-3.1-70b-instruct' } : {}),
        isShared: false,
        isPrivate: true,
      },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    endpointId = ((await created.json()) as { data: { id: string } }).data.id;
  }
  const key = await request.post('/api/key', {
    headers: owner.headers,
    data: { name: 'Screenshots key', scope: ['gateway.invoke'] },
  });
  expect(key.status(), await key.text()).toBe(201);

  for (const width of [390, 1280]) {
    for (const theme of ['light', 'dark']) {
      const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 } });
      await context.addInitScript(
        ([token, user, mode, lng]) => {
          if (!sessionStorage.getItem('seeded')) {
            localStorage.setItem('air.token', token);
            localStorage.setItem('air.user', user);
            sessionStorage.setItem('seeded', '1');
          }
          localStorage.setItem('air.theme', mode);
          localStorage.setItem('air.locale', lng);
        },
        [owner.token, JSON.stringify(owner.user), theme, locale] as const,
      );
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (msg) => msg.type() === 'error' && errors.push(`${page.url()}: ${msg.text()}`));
      await page.goto('/account/billing');
      for (const [i, tab] of TABS.entries()) {
        await page.getByRole('tab', { name: tab }).click();
        await page.waitForLoadState('networkidle');
        await page.screenshot({
          path: `${SHOTS}billing-${i + 1}-${tab.toLowerCase()}-${locale}-${width}-${theme}.png`,
          fullPage: true,
        });
      }
      for (const asked of paths) {
        const path = asked.replace(':endpoint', endpointId);
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        const name = asked.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'root';
        await page.screenshot({ path: `${SHOTS}${name}-${locale}-${width}-${theme}.png`, fullPage: true });
      }
      expect(errors, 'console errors').toEqual([]);
      await context.close();
    }
  }
});
