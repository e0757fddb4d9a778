import { expect, test } from '../support/fixtures';
import { createUser } from '../support/users';

/*
 * The public catalog, signed out: an endpoint another account shares (with a price) is found by
 * searching as you type, its card shows the price, and its page shows the chart and a cURL snippet
 * filled with the route; at phone width too.
 */

const stamp = Date.now().toString(36);

test('signed out: search the catalog, open an endpoint page', async ({ page, request }) => {
  const provider = await createUser(request, 'Pia Provider', 'mkt', { accountName: 'Pia Labs' });
  const routeName = `pia-${stamp}/tide-model`;
  const created = await request.post('/api/aiendpoint', {
    headers: provider.headers,
    data: {
      name: 'Tide Model',
      route_name: routeName,
      route_endpoint: 'https://upstream.example.com/v1/chat/completions',
      route_type: 'model',
      isShared: true,
      isPrivate: false,
      description: `<p>Predicts tides ${stamp} for any harbour.</p>`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  const priced = await request.patch(`/api/aiendpoint/${id}`, {
    headers: provider.headers,
    data: { config: { price: { per_call: 5, per_1m_input_tokens: 150, per_1m_output_tokens: 0 } } },
  });
  expect(priced.status(), await priced.text()).toBe(200);

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
    await expect(page.getByTestId('snippet-curl')).toContainText(`"model":"${routeName}"`);
    await page.getByRole('tab', { name: 'OpenAI SDK' }).click();
    await expect(page.getByTestId('snippet-openai')).toContainText('/api/v1');
    // No horizontal scrolling at phone width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.getByRole('link', { name: 'Pia Labs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Endpoints of pia-${stamp}` })).toBeVisible();
    await expect(page.getByTestId('catalog-card')).toHaveCount(1);
  }
});
