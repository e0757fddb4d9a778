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

/*
 * The earnings statement of a provider whose callers were invoiced. Earnings come only from callers'
 * renewals (the marketplace journey makes them for real, moving the billing clock); the layout is
 * judged here on the server's answer replaced by one line with all three price parts.
 */
const EARNINGS = {
  fee_percent: 10,
  currency: 'usd',
  currency_symbol: '$',
  rows: [
    {
      period: '2026-11',
      route_name: 'acme-labs/gpt-style-chat-model',
      price: { per_call: 2_500, per_1m_input_tokens: 1_500_000, per_1m_output_tokens: 6_000_000 },
      calls: 123_456,
      paying_accounts: 31,
      gross: 1_234_567,
      fee: 123_457,
      net: 1_111_110,
    },
  ],
};

test('the earnings price stays one part a line, with every amount in view at 1280 px, in English and Spanish', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Wide Earnings', 'truth3-earn');
  await useSessionOf(page, owner);
  await page.route('**/api/account/earnings', (route) => route.fulfill({ json: { data: EARNINGS } }));
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const [locale, net, most] of [
    ['en', 'Net', 1],
    // "1,50 US$ por 1 M de tokens de entrada" may take two lines; never six.
    ['es', 'Neto', 2],
  ] as const) {
    await page.addInitScript((lng) => localStorage.setItem('air.locale', lng), locale);
    await page.goto('/account/earnings');
    const table = page.getByRole('table');
    await expect(table.getByRole('columnheader', { name: net })).toBeInViewport({ ratio: 1 });
    // The lines each price part takes on screen, read from the text itself (a part may share a
    // text node with the others, as when the three were one run of text).
    const texts = {
      en: ['$0.0025 per call', '$1.50 per 1M input tokens', '$6.00 per 1M output tokens'],
      es: [
        '0,0025 US$ por llamada',
        '1,50 US$ por 1 M de tokens de entrada',
        '6,00 US$ por 1 M de tokens de salida',
      ],
    }[locale];
    await expect(table).toContainText(texts[2]!.replace(/\s/g, ' ').slice(-12));
    const lines = await table.evaluate((node, wanted) => {
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      const found: Record<string, number> = {};
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const value = (text.textContent ?? '').replace(/\u00a0/g, ' ');
        for (const part of wanted) {
          const at = value.indexOf(part);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + part.length);
          found[part] = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        }
      }
      return found;
    }, texts);
    expect(Object.keys(lines)).toHaveLength(3);
    for (const count of Object.values(lines)) expect(count).toBeLessThanOrEqual(most);
    const frame = await table.evaluate(
      (node) => node.parentElement!.scrollWidth - node.parentElement!.clientWidth,
    );
    expect(frame).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBe(0);
});
