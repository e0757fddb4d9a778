import { expect, test } from '../support/fixtures';
import { createSharedEndpoint, createUser, useSessionOf, withUpstream } from '../support/users';

/*
 * Issue 42, items 2 and 7: the key form takes a key's tokens per minute and its monthly budget (an
 * amount in the billing currency, as the spend limit is entered); the gateway holds both; the key
 * list shows each key's calls, tokens and spend against its caps this period, in English and
 * Spanish.
 */

const stamp = Date.now().toString(36);

test('a key made with a token limit and a budget: enforced, and the list shows its figures', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await withUpstream(async (upstream) => {
    const provider = await createUser(request, 'Pia Provider', 'budget-sell');
    // A paid plan: the card priced routes need is on file.
    const caller = await createUser(request, 'Cai Caller', 'budget-buy', { plan: 'team' });
    const routeName = `pia-${stamp}/priced`;
    await createSharedEndpoint(request, provider, {
      name: 'Priced',
      routeName,
      url: `${upstream.url}/ok`,
      price: { per_call: 250_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
    });

    await useSessionOf(page, caller);
    await page.goto('/account/apikeys/create');
    await page.getByLabel('Name').fill('Budgeted key');
    await page.getByLabel('Tokens per minute').fill('1000');
    // Typed as an amount, with a decimal comma (a bad amount is refused: api-keys.test.tsx).
    await page.getByLabel('Monthly budget').fill('0,50');
    await page.getByRole('button', { name: 'Create key' }).click();
    const fullKey = (await page.getByTestId('full-key').textContent())!.trim();

    const invoke = () =>
      request.post('/api/v1/chat/completions', {
        headers: { Authorization: `Bearer ${fullKey}` },
        data: { model: routeName, messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 },
      });
    for (let i = 0; i < 2; i++) {
      const answer = await invoke();
      expect(answer.status(), await answer.text()).toBe(200);
      expect(answer.headers()['x-ratelimit-limit-tokens']).toBe('1000');
    }
    // 0.25 a call: the budget of 0.50 is spent.
    const refused = await invoke();
    expect(refused.status()).toBe(402);
    expect(await refused.text()).toContain('key_budget_exceeded');

    await page.goto('/account/apikeys');
    const row = page.getByRole('row', { name: /Budgeted key/ });
    await expect(row.getByTestId('key-usage')).toContainText('2 calls this period, no cap');
    // The mock answers 4 + 6 tokens a call.
    await expect(row.getByTestId('key-tokens')).toHaveText('20 tokens this period, limit 1,000 a minute');
    await expect(row.getByTestId('key-spend')).toContainText('$0.50 / $0.50 this period');
    await expect(row.getByTestId('key-spend')).toContainText('Budget spent: priced calls refused');

    // The edit form starts from the saved amounts.
    await row.getByText('Budgeted key').click();
    await expect(page.getByLabel('Monthly budget')).toHaveValue('0.50');
    await expect(page.getByLabel('Tokens per minute')).toHaveValue('1000');

    // In Spanish.
    await page.evaluate(() => localStorage.setItem('air.locale', 'es'));
    await page.goto('/account/apikeys');
    const fila = page.getByRole('row', { name: /Budgeted key/ });
    await expect(fila.getByTestId('key-tokens')).toHaveText(
      '20 tokens en este periodo, límite de 1.000 por minuto',
    );
    await expect(fila.getByTestId('key-spend')).toContainText('Presupuesto agotado');
  });
});
