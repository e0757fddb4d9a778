import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { extractText, getDocumentProxy } from 'unpdf';
import type { TAnswerOf } from '@air/shared/api';
import { expect, test } from '../support/fixtures';
import { createSharedEndpoint, createUser, useSessionOf, withUpstream } from '../support/users';

/*
 * The public catalog, signed out: an endpoint another account shares (with a price) is found by
 * searching as you type, its card shows the price, and its page shows the chart and a cURL snippet
 * filled with the route; at phone width too.
 *
 * Signed in, the money's whole path: a provider prices a shared endpoint in its Settings tab, a
 * caller with a card calls it through the gateway, the billing clock moves a month on, the caller's
 * invoice (and its PDF) carries the route's line and the provider's Earnings page the same gross
 * with the platform fee taken. This file runs in its own project after the billing spec
 * (playwright.config.ts): the clock it moves is the server's only one.
 */

const stamp = Date.now().toString(36);

test('signed out: search the catalog, open an endpoint page', async ({ page, request }) => {
  const provider = await createUser(request, 'Pia Provider', 'mkt', { accountName: 'Pia Labs' });
  const routeName = `pia-${stamp}/tide-model`;
  await createSharedEndpoint(request, provider, {
    name: 'Tide Model',
    routeName,
    url: 'https://upstream.example.com/v1/chat/completions',
    description: `<p>Predicts tides ${stamp} for any harbour.</p>`,
    price: { per_call: 50_000, per_1m_input_tokens: 1_500_000, per_1m_output_tokens: 0 },
  });

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/marketplace');
    await expect(page).toHaveTitle('AI endpoint marketplace | AIR');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`tides ${stamp}`);
    const card = page.getByTestId('catalog-card').filter({ hasText: routeName });
    await expect(card).toHaveCount(1);
    await expect(page.getByTestId('catalog-card')).toHaveCount(1);
    await expect(card.getByTestId('price')).toHaveText('$0.05 per call · $1.50 per 1M input tokens');
    await expect(card).toContainText('Pia Labs');
    await expect(page).toHaveURL(/q=tides/);

    await card.getByRole('link', { name: 'Tide Model' }).click();
    await expect(page).toHaveURL(new RegExp(`/marketplace/pia-${stamp}/tide-model$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Tide Model' })).toBeVisible();
    await expect(page).toHaveTitle('Tide Model | AIR');
    await expect(page.getByTestId('daily-chart')).toBeVisible();
    await expect(page.getByTestId('snippet-curl')).toContainText(`x-route-name: ${routeName}`);
    await page.getByRole('tab', { name: 'OpenAI SDK' }).click();
    await expect(page.getByTestId('snippet-openai')).toContainText('/api/v1');
    // No horizontal scrolling at phone width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.getByRole('link', { name: 'Pia Labs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Pia Labs' })).toBeVisible();
    await expect(page.getByTestId('catalog-card')).toHaveCount(1);
    await expect(page).toHaveTitle('Pia Labs on the AIR marketplace | AIR');
    await page.goBack();
    await expect(page).toHaveTitle('Tide Model | AIR');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      `Predicts tides ${stamp} for any harbour.`,
    );
  }

  // The address itself, as a link preview fetches it (no script): the title and description are in the HTML.
  const served = await request.get(`/marketplace/${routeName}`, { headers: { accept: 'text/html' } });
  expect(served.status()).toBe(200);
  const html = await served.text();
  expect(html).toContain('<title>Tide Model | AIR</title>');
  expect(html).toContain(
    `<meta property="og:description" content="Predicts tides ${stamp} for any harbour." />`,
  );
});

test('signed in: price an endpoint, call it from a card-holding account, renew, see the invoice line and the earnings', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await withUpstream(async (upstream) => {
    const provider = await createUser(request, 'Pablo Provider', 'mkt-earn', { accountName: 'Pablo Labs' });
    const caller = await createUser(request, 'Carla Caller', 'mkt-pay', { plan: 'team' });
    const cardless = await createUser(request, 'Nico Nocard', 'mkt-nocard');
    const routeName = `pablo-${stamp}/sum`;
    const endpointId = await createSharedEndpoint(request, provider, {
      name: 'Summer',
      routeName,
      url: `${upstream.url}/ok`,
    });

    // The provider sets the price in the endpoint's Settings tab (micros, up to 6 decimals): $0.25
    // a call, $333.333333 per million input tokens and $500 per million output tokens.
    await useSessionOf(page, provider);
    await page.goto(`/aiendpoints/${endpointId}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Per call (USD)').fill('0.25');
    await page.getByLabel('Per 1M input tokens (USD)').fill('333.333333');
    await page.getByLabel('Per 1M output tokens (USD)').fill('500');
    await page.getByRole('button', { name: 'Save price' }).click();
    await expect(page.getByText('Saved', { exact: true }).first()).toBeVisible();
    const listed = await request.get(`/api/marketplace/${routeName}`);
    expect(((await listed.json()) as { data: { price: unknown } }).data.price).toEqual({
      per_call: 250_000,
      per_1m_input_tokens: 333_333_333,
      per_1m_output_tokens: 500_000_000,
    });

    // Calls through the gateway: refused without a card, answered with one (the mock upstream
    // reports 4 input and 6 output tokens a call).
    const keyOf = async (who: typeof caller) => {
      const key = await request.post('/api/key', {
        headers: who.headers,
        data: { name: 'Marketplace key', scope: ['gateway.invoke'] },
      });
      expect(key.status(), await key.text()).toBe(201);
      return ((await key.json()) as { data: { full_key: string } }).data.full_key;
    };
    const invoke = (key: string) =>
      request.post('/api/v1/chat/completions', {
        headers: { Authorization: `Bearer ${key}` },
        data: { model: routeName, messages: [{ role: 'user', content: 'add these up' }] },
      });
    const refused = await invoke(await keyOf(cardless));
    expect(refused.status(), await refused.text()).toBe(402);
    const callerKey = await keyOf(caller);
    for (let i = 0; i < 3; i++) {
      const answer = await invoke(callerKey);
      expect(answer.status(), await answer.text()).toBe(200);
    }
    // Metering writes in batches: the renewal bills what is stored.
    await expect
      .poll(
        async () => {
          const log = await request.get('/api/account/usage/log', { headers: caller.headers });
          return ((await log.json()) as { data: { items: unknown[] } }).data.items.length;
        },
        { timeout: 15_000 },
      )
      .toBe(3);

    const clock = await request.post('/api/dev/billing-clock', { data: { advance_ms: 31 * 86_400_000 } });
    expect(clock.status(), await clock.text()).toBe(200);

    // Exact cost: 3 x (25 + 4 x 0.0333333333 + 6 x 0.05) = 76.2999999996 cents, rounded once on the
    // line: $0.76.
    const invoices = await request.get('/api/account/invoice', { headers: caller.headers });
    const list = (await invoices.json()) as TAnswerOf<'GET /api/account/invoice'>;
    const line = list.data.items.flatMap((invoice) =>
      invoice.lines.filter((l) => l.description.startsWith(`Marketplace: ${routeName}`)),
    );
    expect(line).toEqual([
      {
        description: `Marketplace: ${routeName}, 3 calls, 12 input + 18 output tokens at $0.25/call, $333.333333/1M input tokens, $500.00/1M output tokens`,
        quantity: 1,
        unit_amount: 76,
        amount: 76,
      },
    ]);
    const renewal = list.data.items.find((invoice) =>
      invoice.lines.some((l) => l.description === line[0]!.description),
    )!;

    // The caller opens that invoice's PDF from the Invoices tab: the line and its amount are in it.
    const callerPage = await page.context().browser()!.newPage();
    try {
      await useSessionOf(callerPage, caller);
      await callerPage.goto('/account/billing');
      await callerPage.getByRole('tab', { name: 'Invoices' }).click();
      const row = callerPage.locator(`tr[data-invoice="${renewal.number}"]`);
      await expect(row).toContainText('Paid');
      const [pdfTab] = await Promise.all([
        callerPage.context().waitForEvent('page'),
        row.getByRole('link', { name: /^PDF of invoice / }).click(),
      ]);
      const pdfUrl = pdfTab.url();
      await pdfTab.close();
      const pdf = await request.get(pdfUrl);
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), {
        mergePages: true,
      });
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain(`Marketplace: ${routeName}, 3 calls, 12 input + 18 output tokens`);
      expect(flat).toContain('$0.76');
    } finally {
      await callerPage.close();
    }

    // The provider's Earnings page: the same $0.76 gross, 10% platform fee rounded once, net.
    await page.goto('/account/earnings');
    await expect(page.getByRole('heading', { level: 1, name: 'Earnings' })).toBeVisible();
    const totals = page.getByTestId('earnings-totals');
    await expect(totals).toContainText('Paid calls3');
    await expect(totals).toContainText('Gross$0.76');
    await expect(totals).toContainText('Platform fee (10%)$0.08');
    await expect(totals).toContainText('Net$0.68');
    const earned = page.getByRole('table', { name: 'Earnings by route and price' }).getByRole('row').nth(1);
    // The price sits under its route in one cell, a part a line (issue 38).
    await expect(earned.getByRole('cell')).toHaveText([
      `${routeName}: $0.25 per call, $333.333333 per 1M input tokens, $500.00 per 1M output tokens`,
      '3',
      '1',
      '$0.76',
      '$0.08',
      '$0.68',
    ]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toMatch(
      new RegExp(
        `\\r\\n\\d{4}-\\d{2},${routeName},0\\.25,333\\.333333,500\\.00,3,1,0\\.76,0\\.08,0\\.68,USD\\r\\n`,
      ),
    );

    // The page with its figures: no serious axe finding at phone width, in both themes, no sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const theme of ['light', 'dark']) {
      await page.evaluate((mode) => localStorage.setItem('air.theme', mode), theme);
      await page.reload();
      await expect(totals).toContainText('Net$0.68');
      const { violations } = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect(
        violations.filter((v) => ['serious', 'critical'].includes(v.impact ?? '')).map((v) => v.id),
        theme,
      ).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, theme).toBeLessThanOrEqual(0);
    }
  });
});
