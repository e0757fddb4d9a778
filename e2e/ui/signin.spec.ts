import type { APIRequestContext, Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { allowRefusals, expect, linkFrom, test, waitForMail } from '../support/fixtures';

/*
 * The sign-in family against the real server and the loopback SMTP server: password, password
 * plus TOTP (and the backup code), magic link from the received mail, forgot and reset password
 * from the received mail, Spanish and dark mode (pictures of the family: `npm run screenshots`).
 */

const PASSWORD = 'first-Pass!1';

let counter = 0;
function uniqueEmail(tag: string): string {
  counter += 1;
  return `signin-${tag}-${Date.now()}-${counter}@example.test`;
}

/** Signs up through the API and opens the verification link from the received mail. */
async function createVerifiedUser(request: APIRequestContext, tag: string) {
  const email = uniqueEmail(tag);
  const res = await request.post('/api/account', {
    data: { name: 'Ada Test', email, password: PASSWORD, confirm_password: '' },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  const mail = await waitForMail(email, /verif/i);
  const verifyToken = new URL(linkFrom(mail, '/signup/verify')).searchParams.get('token');
  const verified = await request.post('/api/user/verify', {
    data: { token: verifyToken },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(verified.status(), await verified.text()).toBeLessThan(300);
  return { email, token };
}

/** A verified user without a plan lands on /signup/plan (spec section 4). */
const AFTER_SIGN_IN = /\/signup\/plan$/;

async function fillPasswordSignIn(page: Page, email: string, password: string) {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('password sign-in routes a verified user without a plan to /signup/plan', async ({ page, request }) => {
  const { email } = await createVerifiedUser(request, 'pw');
  await fillPasswordSignIn(page, email, PASSWORD);
  await expect(page).toHaveURL(AFTER_SIGN_IN);
  const stored = await page.evaluate(() => localStorage.getItem('air.token'));
  expect(stored).toBeTruthy();
});

test('a wrong password is reported on the password field and stays on /signin', async ({
  page,
  request,
  consoleErrors,
}) => {
  const { email } = await createVerifiedUser(request, 'wrong');
  await fillPasswordSignIn(page, email, 'not-the-Password!');
  // The server names the password field, so the message sits under it.
  await expect(page.getByRole('alert').filter({ hasText: 'Email or password is incorrect' })).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
  allowRefusals(consoleErrors, [401]);
});

test('password then TOTP, and the backup code on the next sign-in', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { email, token } = await createVerifiedUser(request, 'totp');
  const auth = { Authorization: `Bearer ${token}` };
  const enable = await request.put('/api/user/2fa', { data: { '2fa_enabled': true }, headers: auth });
  expect(enable.status(), await enable.text()).toBeLessThan(300);
  const { secret } = ((await enable.json()) as { data: { secret: string } }).data;
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  const verify = await request.post('/api/user/2fa/verify', {
    data: { code: totp.generate() },
    headers: auth,
  });
  expect(verify.status(), await verify.text()).toBeLessThan(300);
  const { backup_code: backupCode } = ((await verify.json()) as { data: { backup_code: string } }).data;
  await request.delete('/api/auth', { headers: auth });

  await fillPasswordSignIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/signin\/otp$/);
  await expect(page.getByRole('heading', { name: 'Two-factor verification' })).toBeVisible();
  // Each step's code is single use on the server, which also accepts the next step's (clock skew):
  // the next step's code is fresh without waiting for it.
  await page
    .getByLabel('Authentication code')
    .pressSequentially(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(AFTER_SIGN_IN);
  // Let the plan page finish its own fetch first: revoking the session under it would answer 401.
  await expect(page.getByRole('radiogroup', { name: 'Plans' })).toBeVisible();

  // Sign out, then finish the second factor with the backup code instead.
  await page.evaluate(async () => {
    await fetch('/api/auth', {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${localStorage.getItem('air.token') ?? ''}` },
    });
    localStorage.removeItem('air.token');
    localStorage.removeItem('air.user');
  });
  await fillPasswordSignIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/signin\/otp$/);
  await page.getByRole('button', { name: 'Use a backup code instead' }).click();
  await page.getByLabel('Backup code').fill(backupCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(AFTER_SIGN_IN);
});

test('magic link from the received mail signs in; a used link is invalid', async ({
  page,
  request,
  consoleErrors,
}) => {
  const { email } = await createVerifiedUser(request, 'magic');
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in with a magic link instead' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send magic link' }).click();
  await expect(page.getByText('Check your email')).toBeVisible();

  const link = linkFrom(await waitForMail(email, /sign|magic/i), '/magic');
  await page.goto(link);
  await expect(page).toHaveURL(AFTER_SIGN_IN);

  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Magic Link Is Invalid' })).toBeVisible();
  await expect(page.getByText('Please go back and try again.')).toBeVisible();
  allowRefusals(consoleErrors, [400, 401]);
});

test('forgot password, reset from the received mail, sign in with the new password', async ({
  page,
  request,
}) => {
  const { email } = await createVerifiedUser(request, 'reset');
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgotpassword$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(`If an account exists for ${email}`)).toBeVisible();

  await page.goto(linkFrom(await waitForMail(email, /reset|password/i), '/resetpassword'));
  const input = page.getByLabel('New password');
  await input.fill('no special chars');
  await input.blur();
  await expect(page.getByText('Password must contain at least one special character')).toBeVisible();
  await input.fill('second-Pass!2');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/signin$/);

  await fillPasswordSignIn(page, email, 'second-Pass!2');
  await expect(page).toHaveURL(AFTER_SIGN_IN);
});

test('the sign-in page in Spanish and in dark mode', async ({ page }) => {
  await page.goto('/signin');
  await page.getByLabel('Language').selectOption('es');
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.getByLabel('Correo electrónico')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Iniciar sesión', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Modo oscuro' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);

  // Both choices survive a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
});
