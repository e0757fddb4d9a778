import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf } from '../support/users';

/* Pictures of the core-loop pages for a person to look at (`npm run screenshots`, not `npm test`). */

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/core-loop/', import.meta.url));
const stamp = Date.now().toString(36);

test('screenshots of the core-loop pages at 390 and 1280 px, light and dark', async ({
  browser,
  request,
}) => {
  test.setTimeout(480_000);
  mkdirSync(SHOTS, { recursive: true });
  const cy = await createUser(request, 'Cy Shots', 'shots');
  const key = await request.post('/api/key', {
    headers: cy.headers,
    data: { name: 'Screenshot key', scope: ['gateway.invoke', 'usage.read'] },
  });
  const keyId = ((await key.json()) as { data: { id: string } }).data.id;
  const ep = await request.post('/api/aiendpoint', {
    headers: cy.headers,
    data: {
      name: 'Screenshot endpoint',
      route_name: `cy-${stamp}/agent`,
      route_endpoint: 'https://upstream.example.com/v1/chat/completions',
      route_type: 'agent',
      isShared: true,
      isPrivate: false,
    },
  });
  const epId = ((await ep.json()) as { data: { id: string } }).data.id;
  await request.patch(`/api/aiendpoint/${epId}`, {
    headers: cy.headers,
    data: {
      description: '<p>An <b>agent</b> that answers questions about your documents.</p>',
      config: {
        headers: { 'x-upstream-key': 'secret-value' },
        upstream_model: 'gpt-4o-mini',
        timeout_ms: 30000,
      },
    },
  });
  const item = await request.post('/api/newitem', { headers: cy.headers, data: { name: 'First item' } });
  const itemId = ((await item.json()) as { data: { id: string } }).data.id;

  const pages: [string, string, ((p: Page) => Promise<void>)?][] = [
    ['dashboard', '/dashboard'],
    ['apikeys', '/account/apikeys'],
    ['apikey-create', '/account/apikeys/create'],
    ['apikey-edit', `/account/apikeys/edit?id=${keyId}`],
    ['registry', '/registry'],
    ['registry-shared', '/registry?tab=shared'],
    ['endpoint', `/aiendpoints/${epId}`],
    ['endpoint-settings', `/aiendpoints/${epId}`, (p) => p.getByRole('tab', { name: 'Settings' }).click()],
    ['mkt', '/mkt'],
    ['newitems', '/newitems'],
    ['newitem-detail', `/newitems/${itemId}`],
    ['airoutes-empty', '/airoutes'],
  ];
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
      await useSessionOf(page, cy, theme);
      for (const [name, path, act] of pages) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expect(page.getByRole('status')).toHaveCount(0);
        if (act) await act(page);
        await page.screenshot({ path: `${SHOTS}${name}-${width}-${theme}.png`, fullPage: true });
      }
      expect(errors, 'console errors').toEqual([]);
      await context.close();
    }
  }
});
