import { expect, test } from '../support/fixtures';
import { createSharedEndpoint, createUser, useSessionOf, withUpstream } from '../support/users';

/*
 * Issue 24: a caller on the free plan adds the card priced marketplace routes need from the
 * billing page's Card tab (decision 032), then sets a monthly spend limit on the usage page. The month's marketplace spend
 * shows against it; a limit already passed refuses the next priced call with 402
 * `spend_limit_reached`; removing it lets calls through again. A bad amount is refused under the
 * field, with what was typed kept.
 */

const stamp = Date.now().toString(36);

test('the usage page sets, enforces and removes a monthly spend limit', async ({ page, request }) => {
  test.setTimeout(90_000);
  await withUpstream(async (upstream) => {
    const provider = await createUser(request, 'Sara Seller', 'spend-sell');
    const caller = await createUser(request, 'Ben Buyer', 'spend-buy');
    const routeName = `sara-${stamp}/priced`;
    await createSharedEndpoint(request, provider, {
      name: 'Priced',
      routeName,
      url: `${upstream.url}/ok`,
      price: { per_call: 250_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
    });
    const key = await request.post('/api/key', {
      headers: caller.headers,
      data: { name: 'Spend key', scope: ['gateway.invoke'] },
    });
    expect(key.status(), await key.text()).toBe(201);
    const fullKey = ((await key.json()) as { data: { full_key: string } }).data.full_key;
    const invoke = () =>
      request.post('/api/v1/chat/completions', {
        headers: { Authorization: `Bearer ${fullKey}` },
        data: { model: routeName, messages: [{ role: 'user', content: 'hi' }] },
      });
    // No card yet: the priced route is refused.
    const cardless = await invoke();
    expect(cardless.status()).toBe(402);
    expect(await cardless.text()).toContain('payment_required');

    // The free plan's Card tab takes one.
    await useSessionOf(page, caller);
    await page.goto('/account/billing');
    await page.getByRole('tab', { name: 'Card' }).click();
    await expect(page.getByText('No card on file.')).toBeVisible();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiration date').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Update card' }).click();
    await expect(page.getByText('Visa ending in 4242')).toBeVisible();
    await expect(page.locator('[data-total="plan"]')).toHaveText('Free');

    for (let i = 0; i < 2; i++) {
      const answer = await invoke();
      expect(answer.status(), await answer.text()).toBe(200);
    }

    await page.goto('/account/usage');
    const card = page.getByTestId('spend-card');
    await expect(card).toContainText('$0.50 spent on priced marketplace routes this month.');
    await expect(card).toContainText('No spend limit');
    const field = card.getByLabel('Monthly spend limit (USD)');

    // A bad amount: refused under the field, the typed text kept, nothing saved.
    await field.fill('lots');
    await card.getByRole('button', { name: 'Save limit' }).click();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(card.locator('#spend-limit-error')).toBeVisible();
    await expect(field).toHaveValue('lots');
    await expect(card).toContainText('No spend limit');

    // A limit below what is spent: saved, shown as reached, and the next priced call refused.
    await field.fill('0,40');
    await card.getByRole('button', { name: 'Save limit' }).click();
    await expect(page.getByText('Spend limit saved')).toBeVisible();
    await expect(card).toContainText('$0.50 of your $0.40 limit (125%)');
    await expect(card.getByRole('progressbar', { name: 'Spend limit used' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    await expect(card).toContainText('The limit is reached');
    await expect(field).toHaveValue('0.40');
    const refused = await invoke();
    expect(refused.status()).toBe(402);
    expect(await refused.text()).toContain('spend_limit_reached');

    // Removed: calls go through again.
    await card.getByRole('button', { name: 'Remove limit' }).click();
    await expect(page.getByText('Spend limit removed')).toBeVisible();
    await expect(card).toContainText('No spend limit');
    await expect(field).toHaveValue('');
    const again = await invoke();
    expect(again.status(), await again.text()).toBe(200);
  });
});
