import type { Browser, Page } from '@playwright/test';
import { expect, linkFrom, test, waitForMail } from '../support/fixtures';
import { createUser, useSessionOf, type TUser } from '../support/users';

/*
 * Teams against the real server and the loopback SMTP server: an owner invites three addresses;
 * a new address signs up from the received mail as a developer; an existing user of another
 * account joins, switches account (the registry shows that account's rows without a reload) and
 * back; a role change reaches the member's open page at its next navigation; a removed member is
 * signed out; the activity log lists it all. Screenshots of the users page, 390/1280, light/dark.
 */

const PASSWORD = 'teams-Pass!1';
const run = Date.now();

async function pageAs(browser: Browser, who: TUser | null, theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  if (who) await useSessionOf(page, who, theme);
  else await page.addInitScript((mode) => localStorage.setItem('air.theme', mode), theme);
  return page;
}

/** Switch account from the user menu, by keyboard (the submenu opens with ArrowRight). */
async function switchAccount(page: Page, name: string) {
  await page.getByTestId('user-menu').click();
  const trigger = page.getByRole('menuitem', { name: 'Switch account' });
  await trigger.focus();
  await trigger.press('ArrowRight');
  const item = page.getByRole('menuitemradio', { name });
  await expect(item).toBeVisible();
  await item.focus();
  await item.press('Enter');
}

test('invite, join, switch accounts, change a role, remove, activity log', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await createUser(request, 'Olivia', 'teams-owner', { accountName: 'Olivia Co' });
  const existing = await createUser(request, 'Ezra', 'teams-existing', { accountName: 'Ezra Co' });
  // The existing user's own account has an endpoint, so switching shows another account's rows.
  const created = await request.post('/api/aiendpoint', {
    headers: { Authorization: `Bearer ${existing.token}` },
    data: { route_name: `ezra/bot-${run}`, route_endpoint: 'http://127.0.0.1:9/v1', route_type: 'agent' },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const newcomer = `teams-new-${run}@example.test`;
  const third = `teams-third-${run}@example.test`;

  // The owner invites three addresses at once, as developers.
  await useSessionOf(page, owner);
  await page.goto('/account/users');
  await page.getByRole('button', { name: 'Invite users' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email addresses').fill(`${newcomer}, ${existing.email}\n${third}`);
  await dialog.getByRole('combobox').click();
  await page.getByRole('option', { name: 'Developer' }).click();
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  const table = page.getByRole('table', { name: 'Users and invitations' });
  for (const email of [newcomer, existing.email, third]) {
    await expect(table.getByRole('row').filter({ hasText: email })).toContainText('Invited');
  }

  // A new address signs up from the received mail and lands in the account as a developer.
  const newMail = await waitForMail(newcomer, /invited you/);
  const dev = await pageAs(browser, null);
  await dev.goto(linkFrom(newMail, '/signup/user'));
  await expect(dev.getByText('Olivia invited you to join Olivia Co as a developer.')).toBeVisible();
  await dev.getByLabel('Name').fill('Nadia');
  await dev.getByLabel('Password').fill(PASSWORD);
  await dev.getByRole('button', { name: 'Join the team' }).click();
  await expect(dev).toHaveURL(/\/welcome/);
  await dev.goto('/account');
  await expect(dev.getByRole('link', { name: /API keys/ }).first()).toBeVisible();
  await expect(dev.getByRole('link', { name: /^Users/ })).toHaveCount(0);
  await expect(dev.getByRole('link', { name: /^Billing/ })).toHaveCount(0);

  // An existing user of another account accepts while signed in, switches account and back.
  const ezra = await pageAs(browser, existing);
  const ezraMail = await waitForMail(existing.email, /invited you/);
  await ezra.goto(linkFrom(ezraMail, '/signup/user'));
  await ezra.getByRole('button', { name: 'Join Olivia Co' }).click();
  await expect(ezra).toHaveURL(/\/dashboard/);
  await expect(ezra.getByTestId('active-account')).toHaveText(/Olivia Co/);
  await ezra.goto('/registry');
  await expect(ezra.getByText(`ezra/bot-${run}`)).toHaveCount(0);
  // Each switch is followed by a client-side navigation (no reload): the registry shows the rows of
  // the account now active, never the cached rows of the previous one.
  const openRegistry = () =>
    ezra
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'AI endpoint registry' })
      .click();
  await switchAccount(ezra, 'Ezra Co');
  await expect(ezra.getByTestId('active-account')).toHaveText(/Ezra Co/);
  await openRegistry();
  await expect(ezra.getByText(`ezra/bot-${run}`).first()).toBeVisible();
  await switchAccount(ezra, 'Olivia Co');
  await expect(ezra.getByTestId('active-account')).toHaveText(/Olivia Co/);
  await openRegistry();
  await expect(ezra.getByRole('tab', { name: 'My Registry' })).toBeVisible();
  await expect(ezra.getByText(`ezra/bot-${run}`)).toHaveCount(0);

  // The admin makes the developer a plain user: the member's open page loses API keys on its next navigation.
  await page.reload();
  const nadiaRow = table.getByRole('row').filter({ hasText: newcomer });
  await nadiaRow.getByRole('button').last().click();
  await page.getByRole('menuitem', { name: 'Edit role' }).click();
  await page.getByRole('dialog').getByRole('combobox').click();
  await page.getByRole('option', { name: 'User' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save role' }).click();
  await expect(nadiaRow).toContainText('User');
  // A client-side navigation (no reload) through the side navigation's Account link.
  await dev
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Account' })
    .click();
  await expect(dev).toHaveURL(/\/account$/);
  await expect(dev.getByRole('link', { name: /API keys/ })).toHaveCount(0);

  // The admin removes the member, who is signed out of the account at their next navigation.
  await nadiaRow.getByRole('button').last().click();
  await page.getByRole('menuitem', { name: 'Remove from account' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(table.getByRole('row').filter({ hasText: newcomer })).toHaveCount(0);
  await dev.goto('/dashboard');
  await expect(dev).toHaveURL(/\/signin/);

  // The activity log shows it in order.
  await page.getByRole('tab', { name: 'Activity' }).click();
  const log = page.getByRole('list', { name: 'Activity log' });
  await expect(log.getByRole('listitem').first()).toContainText(`removed ${newcomer}`);
  await expect(log).toContainText(`changed the role of ${newcomer} from Developer to User`);
  await expect(log).toContainText('joined the account as Developer');
  await expect(log).toContainText(`invited ${third} as Developer`);
});
