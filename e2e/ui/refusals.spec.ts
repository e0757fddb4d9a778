import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf, withUpstream } from '../support/users';

/*
 * Issue 38 item 2: refused calls are visible. A key capped at 2 calls makes 4: the request log
 * shows the 2 refusals with their code, the dashboard's error rate counts them and says the limit
 * is reached, and the key list shows 2 / 2 with "limit reached". Before, the key list said
 * "2 calls per period" with no use and nothing said calls were refused.
 */

const stamp = Date.now().toString(36);

test('a key capped at 2 making 4 calls: the refusals, its use and the limit reached are shown', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await withUpstream(async (upstream) => {
    const owner = await createUser(request, 'Rita Refused', 'refusals');
    const routeName = `rita-${stamp}/echo`;
    const endpoint = await request.post('/api/aiendpoint', {
      headers: owner.headers,
      data: { route_name: routeName, route_endpoint: `${upstream.url}/ok`, route_type: 'model' },
    });
    expect(endpoint.status(), await endpoint.text()).toBe(201);
    const key = await request.post('/api/key', {
      headers: owner.headers,
      data: { name: 'Capped key', scope: ['gateway.invoke'], monthly_calls: 2 },
    });
    expect(key.status(), await key.text()).toBe(201);
    const fullKey = ((await key.json()) as { data: { full_key: string } }).data.full_key;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await request.post('/api/v1/chat/completions', {
        headers: { Authorization: `Bearer ${fullKey}` },
        data: { model: routeName, messages: [{ role: 'user', content: 'hi' }] },
      });
      statuses.push(answer.status());
    }
    expect(statuses).toEqual([200, 200, 429, 429]);

    await useSessionOf(page, owner);
    // The request log: both refusals with their code.
    await page.goto('/account/usage');
    const log = page.getByRole('table', { name: 'Request log' });
    await expect(log.locator('tr[data-status="429"]')).toHaveCount(2);
    for (const refused of await log.locator('tr[data-status="429"]').all()) {
      await expect(refused).toContainText('key_quota_exceeded');
      await expect(refused).toContainText('(refused before routing)');
    }
    await expect(log.locator('tr[data-status="200"]')).toHaveCount(2);
    const usageState = page.getByTestId('limits-reached');
    await expect(usageState).toContainText('Limit reached: calls are refused');
    await expect(usageState).toContainText('Key “Capped key” has used all its calls');

    // The key list: 2 / 2 used, 2 refused, limit reached.
    await page.goto('/account/apikeys');
    const row = page.getByRole('row').filter({ hasText: 'Capped key' });
    await expect(row.getByTestId('key-usage')).toContainText('2 / 2 calls this period');
    await expect(row.getByTestId('key-usage')).toContainText('2 refused');
    await expect(row.getByText('Limit reached: calls refused')).toBeVisible();

    // The dashboard: the error rate counts the refusals, and the state says calls are refused.
    await page.goto('/dashboard');
    await expect(page.getByTestId('error-rate')).toHaveText('50%');
    const state = page.getByTestId('limits-reached');
    await expect(state).toContainText('Limit reached: calls are refused');
    await expect(state).toContainText('2 calls refused for a limit this month.');
  });
});
