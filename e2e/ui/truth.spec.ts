import type { APIRequestContext, Page } from '@playwright/test';
import type { TActivityPage } from '@air/shared/schemas/activity';
import { expect, linkFrom, test, waitForMail } from '../support/fixtures';
import { createUser, PASSWORD, useSessionOf, type TUser } from '../support/users';

/*
 * The console tells the truth at once (issue 38): what a write changed shows on the dashboard
 * reached by the side navigation, the key's text says what really happens to it, and a signed-in
 * member without a role is told so inside the app, never sent to the sign-in page.
 */

const stamp = Date.now().toString(36);

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

/** Creates an endpoint through the registry's New dialog (the page is on /registry). */
async function createEndpointInConsole(page: Page, route: string) {
  await page.getByRole('button', { name: 'New' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Route name').fill(route);
  await dialog.getByLabel('Endpoint URL').fill('https://api.example.com/v1/chat/completions');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
}

/** Creates a key on /account/apikeys/create and answers its full value from the created screen. */
async function createKeyInConsole(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name', { exact: false }).first().fill(name);
  await page.getByRole('checkbox', { name: /gateway\.invoke/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  return (await page.getByTestId('full-key').textContent())!.trim();
}

test('item 1: an endpoint and a key made in the console show on the dashboard reached by the side navigation', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Tru Fresh', 'truth-fresh');
  await useSessionOf(page, owner);
  await page.goto('/dashboard');
  await expect(page.getByTestId('get-started')).toContainText('0 of 3 steps done');
  await expect(page.getByText('No endpoints yet.')).toBeVisible();

  // An older endpoint made elsewhere, named to sort first: the snippet must use the one made now.
  const older = await request.post('/api/aiendpoint', {
    headers: owner.headers,
    data: {
      route_name: `aaa-${stamp}/older`,
      route_endpoint: 'https://api.example.com/older',
      route_type: 'model',
    },
  });
  expect(older.status(), await older.text()).toBe(201);

  const route = `zz-${stamp}/fresh`;
  await mainNav(page).getByRole('link', { name: 'AI endpoint registry' }).click();
  await createEndpointInConsole(page, route);
  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByTestId('get-started')).toContainText('1 of 3 steps done');
  await expect(page.getByText('No endpoints yet.')).toHaveCount(0);
  await expect(page.getByTestId('endpoint-health')).toContainText(route);
  await expect(page.getByTestId('snippet-curl')).toContainText(`x-route-name: ${route}`);

  // The key, created from the checklist's link, then back by the side navigation.
  await page.getByTestId('get-started').getByRole('link', { name: 'Create an API key' }).click();
  const fullKey = await createKeyInConsole(page, 'Fresh key');
  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByTestId('get-started')).toContainText('2 of 3 steps done');
  // The key just made (its visible prefix), whether the snippet masks the rest or not.
  await expect(page.getByTestId('snippet-curl')).toContainText(`x-api-key: ${fullKey.slice(0, 8)}`);
});

test('item 1: the key-created and endpoint-created screens each show a ready-to-run call', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Tru Ready', 'truth-ready');
  await useSessionOf(page, owner);
  const route = `ready-${stamp}/echo`;
  await page.goto('/registry');
  await createEndpointInConsole(page, route);
  const endpointCall = page.getByTestId('ready-call');
  await expect(endpointCall).toContainText(`x-route-name: ${route}`);
  await expect(endpointCall).toContainText('/api/v1');

  await page.goto('/account/apikeys/create');
  const fullKey = await createKeyInConsole(page, 'Ready key');
  const keyCall = page.getByTestId('ready-call');
  await expect(keyCall).toContainText(`x-api-key: ${fullKey}`);
  await expect(keyCall).toContainText(`x-route-name: ${route}`);
});

test('item 3: the key text is true, each reveal is logged, the dashboard masks the key and copies it whole', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = await createUser(request, 'Tru Reveal', 'truth-reveal');
  await useSessionOf(page, owner);
  await page.goto('/account/apikeys/create');
  const fullKey = await createKeyInConsole(page, 'Reveal key');
  const created = page.getByRole('region', { name: 'Your new API key' });
  await expect(created).not.toContainText('only time');
  await expect(created).toContainText('activity log');

  // A reveal in the list is recorded in the account's activity log.
  await page.getByRole('link', { name: 'Back to API keys' }).click();
  await page.getByRole('button', { name: 'Reveal key Reveal key' }).click();
  await expect(page.getByRole('cell', { name: fullKey })).toBeVisible();
  const log = await request.get('/api/account/activity?type=key.revealed', { headers: owner.headers });
  expect(log.status(), await log.text()).toBe(200);
  const entries = ((await log.json()) as { data: TActivityPage }).data.items;
  expect(entries.map((e) => e.data.name)).toEqual(['Reveal key']);

  // The dashboard (a fresh load, as after a new sign-in) shows the key masked; Copy copies it whole.
  await page.goto('/dashboard');
  const snippet = page.getByTestId('snippet-curl');
  await expect(snippet).toContainText(`x-api-key: ${fullKey.slice(0, 8)}`);
  await expect(snippet).not.toContainText(fullKey);
  await page.getByRole('tabpanel').getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('tabpanel').getByRole('button', { name: 'Copied!' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`x-api-key: ${fullKey}`);
});

/** A new address joins the owner's account from its invite as a plain user, onboarded or not. */
async function plainMember(request: APIRequestContext, owner: TUser, onboarded: boolean): Promise<TUser> {
  const email = `truth-member-${stamp}-${onboarded ? 'on' : 'new'}@example.test`;
  const sent = await request.post('/api/invite', {
    headers: owner.headers,
    data: { email, permission: 'user' },
  });
  expect(sent.status(), await sent.text()).toBeLessThan(300);
  const inviteId = new URL(
    linkFrom(await waitForMail(email, /invited you/), '/signup/user'),
  ).searchParams.get('token');
  const joined = await request.post('/api/user', {
    data: { name: 'Pia Plain', email, password: PASSWORD, confirm_password: '', invite_id: inviteId },
  });
  expect(joined.status(), await joined.text()).toBe(201);
  const token = ((await joined.json()) as { data: { token: string } }).data.token;
  const headers = { Authorization: `Bearer ${token}` };
  if (onboarded) {
    const done = await request.patch('/api/user', { headers, data: { onboarded: true } });
    expect(done.status(), await done.text()).toBeLessThan(300);
  }
  const user = (
    (await (await request.get('/api/user', { headers })).json()) as { data: Record<string, unknown> }
  ).data;
  return { email, name: 'Pia Plain', token, user, headers };
}

test('item 4: a plain member opening API keys or Billing is told which role it takes, inside the app', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Tru Owner', 'truth-owner', { accountName: 'Truth Co' });
  const member = await plainMember(request, owner, true);
  await useSessionOf(page, member);

  await page.goto('/account/apikeys');
  await expect(page).toHaveURL(/\/account\/apikeys$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You need the Developer role');
  await expect(page.getByText(/owner or an admin of Truth Co/)).toBeVisible();
  await expect(page.getByText('Welcome back')).toHaveCount(0);
  await expect(mainNav(page)).toBeVisible();

  // Billing by a client-side navigation too.
  await page.goto('/account');
  await page.evaluate(() => {
    history.pushState({}, '', '/account/billing');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page).toHaveURL(/\/account\/billing$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You need the Owner role');
  await expect(page.getByText('Welcome back')).toHaveCount(0);
});

test('item 4: onboarding does not tell a plain member to create keys', async ({ page, request }) => {
  const owner = await createUser(request, 'Tru Boss', 'truth-boss');
  const member = await plainMember(request, owner, false);
  await useSessionOf(page, member);
  await page.goto('/welcome');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(/Create an API key/i)).toHaveCount(0);
  await expect(page.getByText(/Developer role/)).toBeVisible();
});
