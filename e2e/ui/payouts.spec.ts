import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createSharedEndpoint, createUser, useSessionOf, withUpstream } from '../support/users';

/*
 * The provider's balance view (contract 5b): a caller's calls show as accrued, not yet invoiced;
 * the caller's renewal makes them the balance; the month's close makes a payout that waits for a
 * bank account; the owner enters one on the page (a wrong IBAN is refused on its field), and the
 * next run pays it: the page shows it paid to the account's last four digits, with its statement.
 * At phone width in dark mode and in Spanish too. Runs in its own project after the marketplace's
 * (playwright.config.ts): it moves the server's one billing clock into the next month.
 */

const stamp = Date.now().toString(36);

async function advance(request: APIRequestContext, ms: number) {
  const clock = await request.post('/api/dev/billing-clock', { data: { advance_ms: ms } });
  expect(clock.status(), await clock.text()).toBe(200);
  return ((await clock.json()) as { data: { now: string } }).data.now;
}

test('a provider sees accrued, balance, pending and paid, enters a bank account and gets paid', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await withUpstream(async (upstream) => {
    const provider = await createUser(request, 'Petra Payee', 'payout-p', { accountName: 'Petra Labs' });
    const caller = await createUser(request, 'Cai Caller', 'payout-c', { plan: 'team' });
    const routeName = `petra-${stamp}/sum`;
    await createSharedEndpoint(request, provider, {
      name: 'Paid summer',
      routeName,
      url: `${upstream.url}/ok`,
      price: { per_call: 5_000_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 },
    });
    const key = await request.post('/api/key', {
      headers: caller.headers,
      data: { name: 'Payout key', scope: ['gateway.invoke'] },
    });
    const raw = ((await key.json()) as { data: { full_key: string } }).data.full_key;
    for (let i = 0; i < 3; i++) {
      const answer = await request.post('/api/v1/chat/completions', {
        headers: { Authorization: `Bearer ${raw}` },
        data: { model: routeName, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(answer.status(), await answer.text()).toBe(200);
    }

    // Three calls at $5.00: $15.00, less the 10 % fee, accrued and not invoiced yet.
    await useSessionOf(page, provider);
    await page.goto('/account/payouts');
    await expect(page.getByRole('heading', { level: 1, name: 'Payouts' })).toBeVisible();
    const figure = (name: string) => page.getByTestId('payout-figures').locator(`[data-figure="${name}"]`);
    await expect(figure('accrued')).toContainText('Accrued, not yet invoiced$13.50', { timeout: 20_000 });
    await expect(figure('balance')).toContainText('Balance$0.00');
    await expect(page.getByText('No payouts yet')).toBeVisible();

    // The caller's renewal invoices and charges them: the balance. Then the month closes.
    const now = await advance(request, 31 * 86_400_000);
    const date = new Date(now);
    const nextMonth = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1, 1);
    await advance(request, nextMonth - date.getTime());
    await page.reload();
    await expect(figure('pending')).toContainText('Pending$13.50');
    const payout = page.getByTestId('payout');
    await expect(payout).toHaveCount(1);
    await expect(payout).toContainText('Waiting for a payout account.');

    // A wrong IBAN is refused on its field; the right one is saved, only its last four shown.
    await page.getByLabel('Account holder').fill('Petra Payee');
    await page.getByRole('textbox', { name: 'IBAN' }).fill('DE89 3704 0044 0532 0130 01');
    await page.getByRole('button', { name: 'Save bank account' }).click();
    const wrong = page.getByText('Enter a valid IBAN (its country, length and check digits)');
    await expect(wrong).toBeVisible();
    await page.getByRole('textbox', { name: 'IBAN' }).fill('DE89 3704 0044 0532 0130 00');
    await page.getByRole('textbox', { name: 'IBAN' }).press('Tab');
    // Leaving the field checks it again: the message goes before the button is pressed.
    await expect(wrong).toBeHidden();
    await page.getByRole('button', { name: 'Save bank account' }).click();
    await expect(page.getByTestId('payout-destination')).toHaveText(
      'Bank account IBAN DE •••• 3000 (Petra Payee)',
    );

    // The next run pays it.
    await advance(request, 60_000);
    await page.reload();
    await expect(figure('paid')).toContainText('Paid$13.50');
    await expect(figure('pending')).toContainText('Pending$0.00');
    await expect(payout.getByText('Paid', { exact: true })).toBeVisible();
    await expect(payout).toContainText('to IBAN DE •••• 3000');
    await payout.getByText('2 lines').or(payout.getByText('1 line')).click();
    await expect(payout.getByRole('table')).toContainText(routeName);
    const csvHref = await payout.getByRole('link', { name: /as CSV$/ }).getAttribute('href');
    const csv = await request.get(csvHref!);
    expect(await csv.text()).toContain('total,,,,,,13.50,USD');
    const pdfHref = await payout.getByRole('link', { name: /as PDF$/ }).getAttribute('href');
    expect((await request.get(pdfHref!)).headers()['content-type']).toBe('application/pdf');

    // Phone width, dark, in Spanish: the same figures, no sideways scroll, no serious axe finding.
    await page.setViewportSize({ width: 390, height: 844 });
    await useSessionOf(page, provider, 'dark');
    await page.evaluate(() => localStorage.setItem('air.locale', 'es'));
    await page.goto('/account/payouts');
    await expect(page.getByRole('heading', { level: 1, name: 'Pagos' })).toBeVisible();
    await expect(figure('paid')).toContainText('Pagado');
    await expect(figure('paid')).toContainText('13,50');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(
      violations.filter((v) => ['serious', 'critical'].includes(v.impact ?? '')).map((v) => v.id),
    ).toEqual([]);
    await page.screenshot({ path: '../test-results/payouts-390-dark-es.png', fullPage: true });
  });
});
