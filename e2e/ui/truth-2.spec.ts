import { expect, linkFrom, test, waitForMail } from '../support/fixtures';
import { createSharedEndpoint, createUser, PASSWORD, useSessionOf } from '../support/users';

/*
 * The console tells the truth at once (issue 38, items 5 and 6): the signed-in marketplace grid
 * carries the catalog's price and 7-day figures and opens the catalog's endpoint page, where a
 * signed-in caller can try the endpoint and is told what a first call needs (a key, a card for a
 * priced endpoint); a visitor who signs up from that page comes back to it.
 */

const stamp = Date.now().toString(36);
const PRICE = { per_call: 50_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 };

test('item 5: /mkt cards show price and 7-day figures and open the catalog endpoint page with Try it', async ({
  page,
  request,
}) => {
  const provider = await createUser(request, 'Mia Maker', 'truth2-mkt', { accountName: `Mia Labs ${stamp}` });
  const routeName = `mia-${stamp}/wave-model`;
  await createSharedEndpoint(request, provider, {
    name: 'Wave Model',
    routeName,
    url: 'https://upstream.example.com/v1/chat/completions',
    description: '<p>Forecasts ocean waves for sailors</p>',
    price: PRICE,
  });
  const caller = await createUser(request, 'Cal Caller', 'truth2-mkt-caller');
  const key = await request.post('/api/key', {
    headers: caller.headers,
    data: { name: 'Try key', scope: ['gateway.invoke'] },
  });
  expect(key.status(), await key.text()).toBe(201);
  await useSessionOf(page, caller);
  await page.goto('/mkt');
  const card = page.getByRole('listitem').filter({ hasText: routeName });
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { name: 'Model' })).toBeVisible();
  await expect(card.getByTestId('card-description')).toHaveText('Forecasts ocean waves...');
  await expect(card.getByTestId('price')).toHaveText('$0.05 per call');
  await expect(card).toContainText('Calls (7 days)');
  await expect(card).toContainText(`Mia Labs ${stamp}`);
  await expect(page.getByRole('listitem').filter({ has: page.getByTestId('price') })).toHaveCount(
    await page
      .getByRole('listitem')
      .filter({ has: page.getByTestId('card-description') })
      .count(),
  );
  expect(await page.getByTestId('card-description').count()).toBeLessThanOrEqual(8);

  await card.getByRole('link', { name: /Details/ }).click();
  await expect(page).toHaveURL(new RegExp(`/marketplace/mia-${stamp}/wave-model$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Wave Model' })).toBeVisible();
  // Inside the console: its navigation and the user menu, not the visitor's sign-in buttons.
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: 'Try it' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Send/ })).toBeVisible();
});

test('item 6: the endpoint page says what a first call needs, with links; sign-up comes back to it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const provider = await createUser(request, 'Nora Net', 'truth2-need');
  const routeName = `nora-${stamp}/priced`;
  const path = `/marketplace/nora-${stamp}/priced`;
  await createSharedEndpoint(request, provider, {
    name: 'Priced Model',
    routeName,
    url: 'https://upstream.example.com/v1/chat/completions',
    price: PRICE,
  });

  // A signed-in owner with no key and no card: both needs are named, each with its link.
  const caller = await createUser(request, 'Nell Nocard', 'truth2-need-caller');
  await useSessionOf(page, caller);
  await page.goto(path);
  const ready = page.getByTestId('caller-readiness');
  await expect(ready).toContainText('Before your first call');
  await expect(ready).toContainText('You need an API key with the gateway.invoke scope.');
  await expect(ready.getByRole('link', { name: 'Create a key' })).toHaveAttribute(
    'href',
    '/account/apikeys/create',
  );
  await expect(ready).toContainText('This endpoint is priced: add a card first');
  await expect(ready.getByRole('link', { name: 'Add a card' })).toHaveAttribute('href', '/account/billing');

  // With a key, the key need is met and its link is gone.
  const key = await request.post('/api/key', {
    headers: caller.headers,
    data: { name: 'Caller key', scope: ['gateway.invoke'] },
  });
  expect(key.status(), await key.text()).toBe(201);
  await page.reload();
  await expect(ready).toContainText('You have an API key that may call the gateway.');
  await expect(ready.getByRole('link', { name: 'Create a key' })).toHaveCount(0);

  // A visitor signs up from the page and lands back on it once verified and on a plan.
  const visitor = await page.context().browser()!.newContext();
  const tab = await visitor.newPage();
  await tab.goto(path);
  await tab.getByRole('link', { name: 'Sign up to call it' }).click();
  await expect(tab).toHaveURL(/\/signup/);
  const email = `truth2-visitor-${stamp}@example.test`;
  await tab.getByLabel('Name').fill('Vic Visitor');
  await tab.getByLabel('Email').fill(email);
  await tab.getByLabel('Password').fill(PASSWORD);
  await tab.getByRole('button', { name: 'Create account' }).click();
  await expect(tab).toHaveURL(/\/signup\/verify$/);
  await tab.goto(linkFrom(await waitForMail(email, /verif/i), '/signup/verify'));
  await expect(tab).toHaveURL(/\/signup\/plan$/);
  await tab.getByRole('radio', { name: /Free/ }).check();
  await tab.getByRole('button', { name: 'Continue' }).click();
  await expect(tab).toHaveURL(new RegExp(`${path}$`));
  await expect(tab.getByTestId('caller-readiness')).toContainText('Before your first call');
  await visitor.close();
});
