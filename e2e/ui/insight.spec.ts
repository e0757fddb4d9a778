import { readFileSync } from 'node:fs';
import { expect, test, waitForMail } from '../support/fixtures';
import { createUser, seedTraffic, startUpstream, useSessionOf } from '../support/users';

/*
 * Usage insight, help and support against the real server: traffic through the gateway to a
 * loopback mock, the usage chart's data table and the CSV carrying the same numbers, the request
 * log filtered by status, the playground streaming an answer, the help search, and the support
 * form's mail arriving in the e2e mailbox.
 */

const stamp = Date.now().toString(36);

test('usage chart, CSV and request log; playground streams; help search; support mail', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const upstream = await startUpstream();
  try {
    const dee = await createUser(request, 'Dee Insight', 'insight');
    const { endpoints } = await seedTraffic(request, dee, upstream.url, stamp);
    await useSessionOf(page, dee);

    // 1. The usage page: the chart's accessible table carries today's calls by status class.
    await page.goto('/account');
    await page.locator('[data-card="usage"]').getByRole('link').click();
    await expect(page).toHaveURL(/\/account\/usage$/);
    const today = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
      new Date(),
    );
    const chartTable = page.getByRole('table', { name: 'Calls per day by status class' });
    const todayRow = chartTable.getByRole('row', { name: new RegExp(`^${today}\\b`) });
    await expect(todayRow.getByRole('cell')).toHaveText(['3', '0', '2']);
    await expect(page.getByTestId('usage-totals')).toContainText('Calls5');
    await expect(page.getByRole('table', { name: 'By endpoint' })).toContainText(`insight-${stamp}/ok`);
    await expect(page.getByRole('progressbar', { name: 'Monthly quota used' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );

    // 2. The CSV holds the same totals.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = readFileSync((await (await downloading).path())!, 'utf8');
    const header = csv.split('\r\n')[0]!.split(',');
    const total = csv
      .split('\r\n')
      .find((line) => line.startsWith('total,'))!
      .split(',');
    const column = (name: string) => Number(total[header.indexOf(name)]);
    expect([column('calls'), column('status_2xx'), column('status_5xx')]).toEqual([5, 3, 2]);
    expect(column('prompt_tokens')).toBe(12);

    // 3. The request log, filtered by status.
    const log = page.getByRole('table', { name: 'Request log' });
    await expect(log.getByRole('row')).toHaveCount(6);
    await page.getByLabel('Status', { exact: true }).selectOption('5xx');
    await expect(log.getByRole('row')).toHaveCount(3);
    await expect(log.locator('tbody tr[data-status="500"]')).toHaveCount(2);
    await expect(log).toContainText('upstream_500');

    // 4. The playground streams an answer through the gateway.
    await page.goto(`/aiendpoints/${endpoints.ok}`);
    await page.getByRole('tab', { name: 'Try it' }).click();
    await page.getByLabel('User message').fill('Say something');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('playground-answer')).toHaveText('Streaming answer from the mock.', {
      timeout: 15_000,
    });
    await expect(page.getByTestId('playground-Status')).toHaveText('200');
    await expect(page.getByTestId('playground-Time to first token')).toHaveText(/\d+ ms/);
    await expect(page.getByTestId('playground-Latency')).toHaveText(/\d+ ms/);

    // 5. Help: the search finds the streaming section and hides the others.
    await page.goto('/help');
    await expect(page.getByRole('heading', { name: 'Getting started' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search the help' }).fill('stream');
    await expect(page.getByRole('heading', { name: 'Gateway reference' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Billing' })).toBeHidden();
    await expect(page.locator('mark').first()).toHaveText(/stream/i);

    // 6. Support: the message is required, then it is sent and arrives, with a copy to the user.
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Please enter a message')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(dee.email);
    await page.getByLabel('Message').fill(`Streams stop early (${stamp})`);
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Message sent. A copy is on its way to your inbox').first()).toBeVisible();
    const mail = await waitForMail('support@example.test', /Support request from Dee Insight/);
    expect(mail.text).toContain(`Streams stop early (${stamp})`);
    expect(mail.text).toContain('Plan: Free');
    await waitForMail(dee.email, /We received your message/);
  } finally {
    upstream.server.close();
  }
});

test('the usage page shows its figures in place of its skeleton, pushing nothing down', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const upstream = await startUpstream();
  try {
    const lee = await createUser(request, 'Lee Layout', 'insight-layout');
    await seedTraffic(request, lee, upstream.url, `layout-${stamp}`);
    await useSessionOf(page, lee);
    // Lighthouse's desktop screen. Layout shifts summed as the CLS metric counts them (one page load).
    await page.setViewportSize({ width: 1350, height: 940 });
    await page.addInitScript(() => {
      const seen = { total: 0 };
      (window as Window & { layoutShift?: typeof seen }).layoutShift = seen;
      new PerformanceObserver((list) => {
        // Layout-shift entries (not in TypeScript's DOM types yet).
        const entries = list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[];
        for (const entry of entries) if (!entry.hadRecentInput) seen.total += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/account/usage');
    await expect(page.getByTestId('usage-totals')).toContainText('Calls5');
    await expect(page.getByRole('table', { name: 'Request log' }).getByRole('row')).toHaveCount(6);
    await expect(page.getByTestId('spend-card')).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Before the figures waited for the spend card, the request log and the chart were pushed down
    // as each part arrived: 0.2 (Lighthouse counts over 0.1 as poor).
    const shift = await page.evaluate(
      () => (window as Window & { layoutShift?: { total: number } }).layoutShift?.total ?? 1,
    );
    expect(shift).toBeLessThan(0.02);
  } finally {
    upstream.server.close();
  }
});
