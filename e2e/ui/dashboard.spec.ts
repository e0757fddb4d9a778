import { expect, test } from '../support/fixtures';
import { createUser, seedTraffic, useSessionOf, withUpstream } from '../support/users';

/*
 * The dashboard overview (issue 26, item 1) against the real server: traffic through the gateway
 * to a loopback mock shows as today's calls, this period's, the error rate, the top routes and
 * the latest calls; the "Get started" checklist has folded away (a key exists, a call succeeded).
 */

const stamp = Date.now().toString(36);

test('a new account sees the Get started checklist and empty figures that say so', async ({
  page,
  request,
}) => {
  const fresh = await createUser(request, 'Gus Start', 'dash-start');
  await useSessionOf(page, fresh);
  await page.goto('/dashboard');
  // A new account: the checklist with nothing done, the figures empty and saying so.
  const checklist = page.getByTestId('get-started');
  await expect(checklist).toContainText('0 of 3 steps done');
  await expect(checklist.getByRole('link', { name: 'Create an API key' })).toHaveAttribute(
    'href',
    '/account/apikeys/create',
  );
  await expect(page.getByTestId('calls-today')).toHaveText('0');
  await expect(page.getByText('No endpoints yet.')).toBeVisible();
});

test('the overview shows the calls made through the gateway; the checklist folds away', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await withUpstream(async (upstream) => {
    const dee = await createUser(request, 'Dee Dash', 'dash');
    await seedTraffic(request, dee, upstream.url, `dash-${stamp}`);
    await useSessionOf(page, dee);
    await page.goto('/dashboard');
    await expect(page.getByTestId('calls-today')).toHaveText('5');
    await expect(page.getByTestId('usage-total')).toHaveText('5');
    await expect(page.getByTestId('error-rate')).toHaveText('40%');
    await expect(page.getByTestId('latency-p50')).toContainText('ms');
    await expect(
      page.getByRole('img', { name: /^Calls per day over the last 30 days: 5 in all/ }),
    ).toBeVisible();
    const routes = page.getByTestId('top-routes').getByRole('listitem');
    await expect(routes.first()).toContainText(`insight-dash-${stamp}/ok3 calls`);
    await expect(routes.nth(1)).toContainText(`insight-dash-${stamp}/fail2 calls2 errors`);
    await expect(page.getByTestId('endpoint-health').getByRole('listitem')).toHaveCount(2);
    await expect(page.getByTestId('latest-calls').getByRole('listitem')).toHaveCount(5);
    await expect(page.getByTestId('get-started')).toHaveCount(0);
    // The examples are one click away.
    await page.getByText('Quick-start examples').click();
    await expect(page.getByTestId('snippet-curl')).toBeVisible();
    // A route opens its endpoint.
    await page
      .getByTestId('top-routes')
      .getByRole('link', { name: `insight-dash-${stamp}/ok` })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`insight-dash-${stamp}/ok`);
  });
});
