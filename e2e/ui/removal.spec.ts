import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, linkFrom, test, waitForMail } from '../support/fixtures';
import { createUser, PASSWORD, useSessionOf, type TUser } from '../support/users';

/*
 * The removed member's landing (issue 26): an admin removes a member who is working in the
 * account, in another browser, or the owner closes the account. A member who belongs to another
 * account lands there, on its dashboard, told why; one who has no other account lands on the
 * sign-in page, which says why, with no error notification, and still says it after a reload.
 */

const run = Date.now();

/** The owner invites `email` as a developer: the invite link's token, from the received mail. */
async function invite(request: APIRequestContext, owner: TUser, email: string): Promise<string> {
  const sent = await request.post('/api/invite', {
    headers: owner.headers,
    data: { email, permission: 'developer' },
  });
  expect(sent.status(), await sent.text()).toBeLessThan(300);
  const mail = await waitForMail(email, /invited you/);
  return new URL(linkFrom(mail, '/signup/user')).searchParams.get('token')!;
}

/** A signed-in member from an answer carrying `{ token, …user }` (joining, invited sign-up). */
function memberFrom(data: Record<string, unknown>, name: string): TUser {
  const { token, ...user } = data as { token: string } & Record<string, unknown>;
  return {
    email: String(user.email),
    name,
    token,
    user,
    headers: { Authorization: `Bearer ${token}` },
  };
}

async function pageAs(browser: Browser, who: TUser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await useSessionOf(page, who);
  return page;
}

/** The owner invites `email` (who has no account yet), who signs up and is onboarded. */
async function invitedOnly(request: APIRequestContext, owner: TUser, email: string, name: string) {
  const token = await invite(request, owner, email);
  const signedUp = await request.post('/api/user', {
    data: { name, email, password: PASSWORD, invite_id: token },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);
  const member = memberFrom(((await signedUp.json()) as { data: Record<string, unknown> }).data, name);
  // Onboarded, so the member works on the dashboard rather than the welcome page.
  const onboarded = await request.patch('/api/user', { headers: member.headers, data: { onboarded: true } });
  expect(onboarded.status(), await onboarded.text()).toBeLessThan(300);
  member.user = { ...member.user, onboarded: true };
  return member;
}

/** The owner invites `other` (who has an account of their own), who joins. */
async function invitedWithOwn(request: APIRequestContext, owner: TUser, other: TUser) {
  const token = await invite(request, owner, other.email);
  const joined = await request.post('/api/user', {
    headers: other.headers,
    data: { email: other.email, invite_id: token },
  });
  expect(joined.status(), await joined.text()).toBe(201);
  return memberFrom(((await joined.json()) as { data: Record<string, unknown> }).data, other.name);
}

/** The admin removes the member from the users page. */
async function removeOnUsersPage(admin: Page, email: string) {
  await admin.goto('/account/users');
  const table = admin.getByRole('table', { name: 'Users and invitations' });
  const row = table.getByRole('row').filter({ hasText: email });
  await row.getByRole('button').last().click();
  await admin.getByRole('menuitem', { name: 'Remove from account' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(table.getByRole('row').filter({ hasText: email })).toHaveCount(0);
}

test('a removed member with another account lands on its dashboard, told why', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = await createUser(request, 'Rita', 'removal-owner', { accountName: `Rita Co ${run}` });
  const other = await createUser(request, 'Milo', 'removal-member', { accountName: `Milo Co ${run}` });
  const member = await invitedWithOwn(request, owner, other);

  // The member works in Rita Co, on its dashboard.
  const milo = await pageAs(browser, member);
  await milo.goto('/dashboard');
  await expect(milo.getByTestId('active-account')).toHaveText(new RegExp(`Rita Co ${run}`));

  // The admin removes them meanwhile, in another browser.
  await useSessionOf(page, owner);
  await removeOnUsersPage(page, member.email);

  // At the member's next load: the notice, and the dashboard of the account they still belong to.
  await milo.reload();
  await expect(
    milo.getByText(`You were removed from Rita Co ${run}. You are now in Milo Co ${run}.`),
  ).toBeVisible();
  await expect(milo).toHaveURL(/\/dashboard$/);
  await expect(milo.getByTestId('active-account')).toHaveText(new RegExp(`Milo Co ${run}`));
  await expect(milo.locator('[data-sonner-toast][data-type="error"]')).toHaveCount(0);
  // The notice is said once: a later navigation does not repeat it.
  await milo.reload();
  await expect(milo.getByTestId('active-account')).toHaveText(new RegExp(`Milo Co ${run}`));
  await expect(milo.getByText(`You were removed from Rita Co ${run}.`)).toHaveCount(0);
});

test('a removed member without another account lands on the sign-in page, which says why', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = await createUser(request, 'Noor', 'removal-owner2', { accountName: `Noor Co ${run}` });
  const member = await invitedOnly(request, owner, `removal-only-${run}@example.test`, 'Ivo');

  const ivo = await pageAs(browser, member);
  await ivo.goto('/dashboard');
  await expect(ivo.getByTestId('active-account')).toHaveText(new RegExp(`Noor Co ${run}`));

  // The admin removes them (through the API this time); the member navigates on.
  const removed = await request.delete(`/api/user/${String(member.user.id)}`, { headers: owner.headers });
  expect(removed.status(), await removed.text()).toBe(200);
  await ivo
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Account' })
    .click();

  await expect(ivo).toHaveURL(/\/signin$/);
  const notice = ivo.getByTestId('session-ended');
  await expect(notice).toContainText('You have been signed out');
  await expect(notice).toContainText(
    `You were removed from Noor Co ${run} and have no other account. Ask an admin for a new invite.`,
  );
  await expect(ivo.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(ivo.locator('[data-sonner-toast]')).toHaveCount(0);
  expect(await ivo.evaluate(() => localStorage.getItem('air.token'))).toBeNull();

  // The sign-in page with the notice: no serious or critical axe finding.
  const { violations } = await new AxeBuilder({ page: ivo })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.filter((v) => ['serious', 'critical'].includes(v.impact ?? '')).map((v) => v.id)).toEqual(
    [],
  );

  // A reload of the sign-in page still says why (decision 033), and still with no notification.
  await ivo.reload();
  await expect(ivo.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(ivo.getByTestId('session-ended')).toContainText(`You were removed from Noor Co ${run}`);
  await expect(ivo.locator('[data-sonner-toast]')).toHaveCount(0);
});

test('members of an account its owner closes: moved with a notice, or signed out with the reason, kept on reload', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await createUser(request, 'Olga', 'closing-owner', { accountName: `Olga Co ${run}` });
  const own = await createUser(request, 'Pia', 'closing-member', { accountName: `Pia Co ${run}` });
  const pia = await pageAs(browser, await invitedWithOwn(request, owner, own));
  const ugo = await pageAs(
    browser,
    await invitedOnly(request, owner, `closing-only-${run}@example.test`, 'Ugo'),
  );
  for (const member of [pia, ugo]) {
    await member.goto('/dashboard');
    await expect(member.getByTestId('active-account')).toHaveText(new RegExp(`Olga Co ${run}`));
  }

  // The owner closes the account meanwhile.
  const closed = await request.delete('/api/account', {
    headers: owner.headers,
    data: { password: PASSWORD },
  });
  expect(closed.status(), await closed.text()).toBe(200);

  // Pia, who has an account of her own, lands on its dashboard at her next load, told why.
  await pia.reload();
  await expect(
    pia.getByText(`The owner of Olga Co ${run} closed it. You are now in Pia Co ${run}.`),
  ).toBeVisible();
  await expect(pia).toHaveURL(/\/dashboard$/);
  await expect(pia.getByTestId('active-account')).toHaveText(new RegExp(`Pia Co ${run}`));
  await expect(pia.locator('[data-sonner-toast][data-type="error"]')).toHaveCount(0);

  // Ugo, who has no other account, is signed out as he navigates on (or at a background refetch
  // that came first, while Pia's page reloaded), told why.
  if (!/\/signin$/.test(ugo.url())) {
    await ugo
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Account' })
      .click({ timeout: 10_000 })
      .catch(() => undefined);
  }
  await expect(ugo).toHaveURL(/\/signin$/);
  const reason = `The owner of Olga Co ${run} closed it, and you have no other account.`;
  await expect(ugo.getByTestId('session-ended')).toContainText(reason);
  await expect(ugo.locator('[data-sonner-toast]')).toHaveCount(0);

  // A reload keeps the reason.
  await ugo.reload();
  await expect(ugo.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(ugo.getByTestId('session-ended')).toContainText(reason);
  // Another tab of the same browser (or anyone opening the sign-in page) is told nothing.
  const fresh = await ugo.context().newPage();
  await fresh.goto('/signin');
  await expect(fresh.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(fresh.getByTestId('session-ended')).toHaveCount(0);
  // Dismissing it forgets it, reload or not.
  await ugo.getByRole('button', { name: 'Dismiss this notice' }).click();
  await expect(ugo.getByTestId('session-ended')).toHaveCount(0);
  await ugo.reload();
  await expect(ugo.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(ugo.getByTestId('session-ended')).toHaveCount(0);
});
