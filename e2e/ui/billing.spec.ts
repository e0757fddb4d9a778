import type { Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { allowRefusals, expect, test } from '../support/fixtures';
import { createUser, useSessionOf } from '../support/users';

/*
 * Card billing against the real server and its embedded card processor (BILLING_PROVIDER=local):
 * a paid sign-up with 4242, an upgrade with a 3-D Secure card completed in the dialog, a declined
 * card's message on the card field, the invoice PDF and its total, a failed renewal (the test
 * clock) whose banner a card update clears, and a renewal the bank wants authorized, completed from
 * the banner in the 3-D Secure dialog.
 */

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

test('upgrade from free with a 3-D Secure card: the dialog, then the dashboard', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await useSessionOf(page, await createUser(request, 'Ada Lovelace', 'billing-upgrade'));
  await page.goto('/account/upgrade?plan=pro');
  await expect(page.getByRole('radio', { name: /Pro/ })).toBeChecked();
  await fillCard(page, '4000 0025 0000 3155');
  await page.getByRole('button', { name: 'Upgrade' }).click();

  const dialog = page.getByRole('dialog', { name: 'Authenticate payment' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByText('Your plan is upgraded. Taking you to the dashboard…')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });

  await page.goto('/account/billing');
  await expect(page.getByRole('radio', { name: /Pro/ })).toBeChecked();
  await expect(page.getByRole('tab', { name: 'Invoices' })).toBeVisible();
});

test('paid sign-up with 4242, invoice PDF, a declined card, a failed renewal and its repair', async ({
  page,
  request,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const session = await createUser(request, 'Ada Lovelace', 'billing-paid', { plan: null });
  await useSessionOf(page, session);

  // Paid sign-up: the guard sends a user without a plan to /signup/plan.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/signup\/plan$/);
  await page.getByRole('radio', { name: /Pro/ }).click();
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/welcome$/);

  // The first invoice: listed with its total, and its PDF opens and holds the same total.
  await page.goto('/account/billing');
  await page.getByRole('tab', { name: 'Invoices' }).click();
  const row = page.locator('tr[data-invoice]').first();
  await expect(row).toContainText('Paid');
  const total = (await row.locator('td').nth(3).innerText()).trim();
  expect(total).toMatch(/^\$\d/);
  const [pdfTab] = await Promise.all([
    page.context().waitForEvent('page'),
    row.getByRole('link', { name: /^PDF of invoice .* \(opens in a new tab\)$/ }).click(),
  ]);
  const pdfUrl = pdfTab.url();
  await pdfTab.close();
  const pdf = await request.get(pdfUrl);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), {
    mergePages: true,
  });
  expect(text).toContain(total.replace(/^\$/, ''));

  // A declined card: the processor's message on the card field, the card on file unchanged.
  await page.getByRole('tab', { name: 'Card' }).click();
  await expect(page.getByText('Visa ending in 4242')).toBeVisible();
  await fillCard(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Update card' }).click();
  const cardField = page.locator('[data-field="token"]');
  await expect(cardField.getByText('Your card was declined.')).toBeVisible();
  await expect(page.getByText('Visa ending in 4242')).toBeVisible();
  allowRefusals(consoleErrors, [400]);

  // A card that attaches but fails every later charge, then a month passes: the renewal fails.
  await page.reload();
  await page.getByRole('tab', { name: 'Card' }).click();
  await fillCard(page, '4000 0000 0000 0341');
  await page.getByRole('button', { name: 'Update card' }).click();
  await expect(page.getByText('Visa ending in 0341')).toBeVisible();
  const clock = await request.post('/api/dev/billing-clock', { data: { advance_ms: 31 * 86_400_000 } });
  expect(clock.status(), await clock.text()).toBe(200);

  // The guard now sends the owner to billing, where the banner asks for a new card.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/account\/billing$/);
  const failed = page.getByRole('alert').filter({ hasText: 'Payment failed' });
  await expect(failed).toBeVisible();
  // When the card is tried again, said in the banner and instead of "Renews on"; the quota shown
  // is the free plan's, which the gateway holds the account to until it pays.
  await expect(failed).toContainText(/We will try your card again on \w+ \d+, \d{4}\./);
  await expect(page.getByText(/^Payment due, retrying on \w+ \d+, \d{4}$/)).toBeVisible();
  await expect(page.getByText(/Renews on/)).toHaveCount(0);
  await expect(page.getByText('Free plan limits until the payment goes through')).toBeVisible();

  // The banner's own "Update card" opens the card form with the focus on the card number.
  await failed.getByRole('button', { name: 'Update card' }).click();
  await expect(page.getByRole('tab', { name: 'Card' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Card number')).toBeFocused();
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('tabpanel').getByRole('button', { name: 'Update card' }).click();
  await expect(page.getByText('Visa ending in 4242')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Payment failed' })).toHaveCount(0);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a renewal the bank wants authorized: the banner, Authorize payment, the dialog, active again', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await useSessionOf(page, await createUser(request, 'Ada Lovelace', 'billing-action', { plan: 'team' }));

  // 3155 put on file without a payment is not set up for charges without the card holder, so the
  // renewal a month later waits for the card holder's authentication.
  await page.goto('/account/billing');
  await page.getByRole('tab', { name: 'Card' }).click();
  await fillCard(page, '4000 0025 0000 3155');
  await page.getByRole('button', { name: 'Update card' }).click();
  await expect(page.getByText('Visa ending in 3155')).toBeVisible();
  const clock = await request.post('/api/dev/billing-clock', { data: { advance_ms: 31 * 86_400_000 } });
  expect(clock.status(), await clock.text()).toBe(200);

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/account\/billing$/);
  const banner = page.getByRole('alert').filter({ hasText: 'Authorization needed' });
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Authorize payment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Authenticate payment' });
  await dialog.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(
    page.getByText('Your payment is authorized and your subscription is active again.', { exact: true }),
  ).toBeVisible();
  await expect(banner).toHaveCount(0);
  await page.getByRole('tab', { name: 'Invoices' }).click();
  await expect(page.locator('tr[data-invoice]')).toHaveCount(2);
  await expect(page.locator('tr[data-invoice]').first()).toContainText('Paid');
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the free plan reads as free; a plan change previews what it costs; a failed 3-D Secure lands under the card', async ({
  page,
  request,
  consoleErrors,
}) => {
  test.setTimeout(60_000);
  await useSessionOf(page, await createUser(request, 'Ada Lovelace', 'billing-preview'));
  await page.goto('/account/billing');
  const free = page.locator('label[data-plan="free"]');
  await expect(free).toContainText('No card needed');
  await expect(free.getByText(/Free/)).toHaveCount(1);
  await expect(page.locator('[data-total="plan"]')).toHaveText('Free');
  await expect(page.locator('[data-total="seats"]')).toHaveCount(0);

  // Pro for one seat, from free: its full price, due now, before the button.
  await page.getByRole('radio', { name: /Pro/ }).click();
  const preview = page.getByRole('region', { name: 'What this change costs' });
  await expect(preview.locator('[data-preview-row="seats"]')).toContainText('1 × $29');
  await expect(preview.locator('[data-preview-row="due"]')).toContainText('Due now$29');
  await expect(preview).toContainText('Then $29 / month');

  // A 3-D Secure card whose authentication fails: the message under the card field, as a decline's.
  await fillCard(page, '4000 0025 0000 3155');
  await page.getByRole('button', { name: 'Change plan' }).click();
  await page
    .getByRole('dialog', { name: 'Authenticate payment' })
    .getByRole('button', { name: 'Fail authentication' })
    .click();
  await expect(
    page.locator('[data-field="token"]').getByText(/We are unable to authenticate your payment method/),
  ).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expect(page.locator('[data-total="plan"]')).toHaveText('Free');
  allowRefusals(consoleErrors, [400]);
});
