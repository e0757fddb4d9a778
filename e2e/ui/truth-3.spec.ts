import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf, type TUser } from '../support/users';

/*
 * Issue 38, what was left of the minor list after decision 042's first passes: where a browser is
 * the only honest judge (what is on screen, at which width).
 */

/** Four keys with every control set somewhere: an expiry, caps, two long route names. */
async function ownerWithKeys(request: Parameters<typeof createUser>[0]): Promise<TUser> {
  const owner = await createUser(request, 'Wide Table', 'truth3-keys');
  const stamp = Date.now().toString(36);
  const routes: string[] = [];
  for (const type of ['agent', 'model']) {
    const route = `wide-table-${stamp}/a-rather-long-${type}-route-name`;
    const created = await request.post('/api/aiendpoint', {
      headers: owner.headers,
      data: {
        name: `Wide ${type}`,
        route_name: route,
        route_endpoint: 'https://upstream.example.test/v1/chat/completions',
        route_type: type,
        isShared: false,
        isPrivate: true,
      },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    routes.push(route);
  }
  for (let i = 0; i < 4; i += 1) {
    const key = await request.post('/api/key', {
      headers: owner.headers,
      data: {
        name: `Production backend key ${i}`,
        scope: ['gateway.invoke', 'usage.read'],
        monthly_calls: i % 2 ? 100_000 : null,
        expires_at: i === 2 ? `${new Date().getFullYear() + 1}-12-31T00:00:00.000Z` : null,
        routes: i === 3 ? routes : null,
      },
    });
    expect(key.status(), await key.text()).toBe(201);
  }
  return owner;
}

async function rightEdge(page: Page, selector: string): Promise<number[]> {
  return page.locator(selector).evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().right));
}

test('the keys table shows every column at 1280 px and a card per key at 390 px', async ({
  page,
  request,
}) => {
  const owner = await ownerWithKeys(request);
  await useSessionOf(page, owner);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/account/apikeys');
  const table = page.getByRole('table', { name: 'API keys' });
  await expect(table.getByRole('row')).toHaveCount(5);
  await expect(table.getByRole('columnheader', { name: 'Status' })).toBeInViewport({ ratio: 1 });
  const actions = table.getByRole('button', { name: 'Actions' });
  await expect(actions).toHaveCount(4);
  for (const button of await actions.all()) await expect(button).toBeInViewport({ ratio: 1 });
  // Nothing hides behind the frame's own scroll bar either (it scrolled sideways before).
  const frame = await table.evaluate((node) => {
    const box = node.parentElement!;
    return { scroll: box.scrollWidth, client: box.clientWidth };
  });
  expect(frame.scroll).toBeLessThanOrEqual(frame.client);
  for (const right of await rightEdge(page, 'table th, table td')) expect(right).toBeLessThanOrEqual(1280);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('phone-sort')).toBeVisible();
  for (const button of await actions.all()) {
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport({ ratio: 1 });
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBe(0);
  for (const right of await rightEdge(page, 'table td')) expect(right).toBeLessThanOrEqual(390);
});
