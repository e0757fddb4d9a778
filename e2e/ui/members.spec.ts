import type { APIRequestContext, Page } from '@playwright/test';
import { expect, linkFrom, test, waitForMail } from '../support/fixtures';
import { createUser, PASSWORD, useSessionOf, type TUser } from '../support/users';

/*
 * Roles (issue 26, item 4), against the real server: a member with the user role opens the
 * dashboard without one refused call or console error and is offered no link they cannot follow.
 */

let seq = 0;

/** Invites `email` into the owner's account as `role` and answers the invite link's token. */
async function invite(request: APIRequestContext, owner: TUser, email: string, role: 'user' | 'developer') {
  const sent = await request.post('/api/invite', {
    headers: owner.headers,
    data: { email, permission: role },
  });
  expect(sent.status(), await sent.text()).toBeLessThan(300);
  return new URL(linkFrom(await waitForMail(email, /invited you/), '/signup/user')).searchParams.get(
    'token',
  )!;
}

/** A session of `token` as the console keeps it (the user as `GET /api/user` answers it). */
async function sessionOf(
  request: APIRequestContext,
  email: string,
  name: string,
  token: string,
): Promise<TUser> {
  const headers = { Authorization: `Bearer ${token}` };
  const onboarded = await request.patch('/api/user', { headers, data: { onboarded: true } });
  expect(onboarded.status(), await onboarded.text()).toBeLessThan(300);
  const user = (
    (await (await request.get('/api/user', { headers })).json()) as { data: Record<string, unknown> }
  ).data;
  return { email, name, token, user, headers };
}

/** A new address joins the owner's account from its invite, as `role`: signed in to that account. */
async function newMember(request: APIRequestContext, owner: TUser, role: 'user' | 'developer') {
  const email = `members-${role}-${Date.now().toString(36)}-${seq++}@example.test`;
  const inviteId = await invite(request, owner, email, role);
  const joined = await request.post('/api/user', {
    data: { name: 'Mina', email, password: PASSWORD, confirm_password: '', invite_id: inviteId },
  });
  expect(joined.status(), await joined.text()).toBe(201);
  return sessionOf(request, email, 'Mina', ((await joined.json()) as { data: { token: string } }).data.token);
}

/** Every answer of the console API the page got with a 4xx or 5xx status. */
function refusedCalls(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && response.status() >= 400) {
      refused.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    }
  });
  return refused;
}

test('a member with the user role: the dashboard makes no refused call, logs no error, offers no key link', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Uma', 'members-owner', { accountName: 'Uma Co' });
  const member = await newMember(request, owner, 'user');
  expect((member.user as { role: string }).role).toBe('user');
  const refused = refusedCalls(page);
  await useSessionOf(page, member);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('active-account')).toHaveText(/Uma Co/);
  await page.waitForLoadState('networkidle');
  expect(refused).toEqual([]);
  await expect(page.locator('a[href^="/account/apikeys"]')).toHaveCount(0);
  // The consoleErrors fixture fails the test on any console error.
});
