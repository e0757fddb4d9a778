import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf, type TUser } from '../support/users';

/*
 * Issue 13's walkthrough findings, checked in the browser against the real server: phone tables
 * keep their actions on screen, the create dialog's focus, numbers in the active language, and the
 * dark theme's contrast (switch tracks, toasts, destructive buttons).
 */

const PHONE = { width: 390, height: 844 };
/** The screens the layout checks run on, one after the other. */
const PHONE_AND_DESKTOP = [PHONE, { width: 1280, height: 800 }] as const;
const stamp = Date.now().toString(36);

async function registerEndpoint(page: Page, who: TUser, tag: string) {
  const res = await page.request.post('/api/aiendpoint', {
    headers: who.headers,
    data: {
      name: `Polish ${tag}`,
      route_name: `polish-${stamp}/${tag}`,
      route_endpoint: 'https://upstream.example.test/v1/chat/completions',
      route_type: 'agent',
      isShared: false,
      isPrivate: true,
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

/** The page never scrolls sideways and the element sits wholly inside the viewport. */
async function expectOnScreen(page: Page, name: string) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, 'no sideways scroll').toBeLessThanOrEqual(PHONE.width);
  const actions = page.getByRole('button', { name }).first();
  await expect(actions).toBeVisible();
  const box = await actions.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
}

test('phone: registry and API-key rows stack as cards with their actions on screen', async ({
  page,
  request,
}) => {
  const who = await createUser(request, 'Pia Phone', 'polish-phone');
  await registerEndpoint(page, who, 'phone');
  const key = await page.request.post('/api/key', {
    headers: who.headers,
    data: { name: 'Phone key', scope: ['gateway.invoke'] },
  });
  expect(key.status(), await key.text()).toBeLessThan(300);
  await useSessionOf(page, who);
  await page.setViewportSize(PHONE);

  await page.goto('/registry');
  await expect(page.getByText(`polish-${stamp}/phone`)).toBeVisible();
  await expectOnScreen(page, 'Actions');
  await page.getByRole('button', { name: 'Actions' }).first().click();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto('/account/apikeys');
  await expect(page.getByText('Phone key')).toBeVisible();
  await expectOnScreen(page, 'Actions');
});

test('create-endpoint dialog: focus lands on the first field and returns to the opener', async ({
  page,
  request,
}) => {
  const who = await createUser(request, 'Fay Focus', 'polish-focus');
  await useSessionOf(page, who);
  await page.goto('/registry');
  const opener = page.getByRole('button', { name: 'New', exact: true });
  await opener.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /Route name/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test('Spanish: numbers are written the Spanish way', async ({ page, request }) => {
  const who = await createUser(request, 'Sol Número', 'polish-es');
  await page.addInitScript(() => localStorage.setItem('air.locale', 'es'));
  await useSessionOf(page, who);
  await page.goto('/dashboard');
  // The free plan's 1000 calls a month.
  await expect(page.getByText('de 1.000 llamadas')).toBeVisible();
});

test('a toast and the feedback button never cover each other, on a phone and on a desktop', async ({
  page,
  request,
}) => {
  const who = await createUser(request, 'Tom Toast', 'polish-toast');
  await useSessionOf(page, who);
  for (const { width, height } of PHONE_AND_DESKTOP) {
    await page.setViewportSize({ width, height });
    await page.goto('/account/profile');
    await page.getByRole('textbox', { name: /Name/ }).first().fill(`Tom Toast ${width}`);
    await page.getByRole('button', { name: 'Save' }).first().click();
    const toastItem = await expectToastHeld(page);
    const toastBox = (await toastItem.boundingBox())!;
    const feedbackBox = (await page.getByRole('button', { name: 'Give feedback' }).boundingBox())!;
    const overlap =
      toastBox.x < feedbackBox.x + feedbackBox.width &&
      feedbackBox.x < toastBox.x + toastBox.width &&
      toastBox.y < feedbackBox.y + feedbackBox.height &&
      feedbackBox.y < toastBox.y + toastBox.height;
    expect(
      overlap,
      `toast ${JSON.stringify(toastBox)} / button ${JSON.stringify(feedbackBox)} at ${width} px`,
    ).toBe(false);
    // Both wholly on screen, and the button still takes a click where it is drawn.
    for (const box of [toastBox, feedbackBox]) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
    }
    await page.mouse.click(feedbackBox.x + feedbackBox.width / 2, feedbackBox.y + feedbackBox.height / 2);
    await expect(page.getByRole('heading', { name: 'How is AIR working for you?' })).toBeVisible();
    await page.keyboard.press('Escape');
  }
});

/** sRGB of any CSS colour (oklch included), through a canvas, and the WCAG contrast of two. */
async function contrast(page: Page, foreground: string, background: string): Promise<number> {
  return page.evaluate(
    ([fg, bg]) => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      // Painted over the (opaque) background, so a translucent colour counts as what the eye sees.
      const rgb = (color: string) => {
        ctx.fillStyle = bg;
        ctx.fillRect(0, 0, 1, 1);
        ctx.fillStyle = color;
        ctx.fillRect(0, 0, 1, 1);
        return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
      };
      const luminance = (c: number[]) =>
        c
          .map((v) => v / 255)
          .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
          .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
      const [a, b] = [luminance(rgb(fg)), luminance(rgb(bg))];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    },
    [foreground, background] as const,
  );
}

/** A toast is showing; the pointer rests on it, which pauses its 5 s timer while axe reads it. */
async function expectToastHeld(page: Page) {
  const toastItem = page
    .getByRole('region', { name: /Notifications/ })
    .getByRole('listitem')
    .first();
  await expect(toastItem).toBeVisible();
  await toastItem.hover();
  return toastItem;
}

test('dark mode: switches, toasts and destructive buttons meet WCAG AA contrast', async ({
  page,
  request,
}) => {
  const who = await createUser(request, 'Dee Dark', 'polish-dark');
  await useSessionOf(page, who, 'dark');

  await page.goto('/account/2fa');
  const toggle = page.getByRole('switch', { name: 'Enable two-factor authentication' });
  await expect(toggle).not.toBeChecked();
  const [track, pageBackground] = await toggle.evaluate((el) => [
    getComputedStyle(el).backgroundColor,
    getComputedStyle(document.body).backgroundColor,
  ]);
  expect(await contrast(page, track!, pageBackground!), 'unchecked switch track').toBeGreaterThanOrEqual(3);

  // A success toast over the profile page, whose Danger Zone holds a destructive button.
  await page.goto('/account/profile');
  await expect(page.getByRole('button', { name: 'Close account' })).toBeVisible();
  const name = page.getByRole('textbox', { name: /Name/ }).first();
  await name.fill('Dee Darker');
  await page.getByRole('button', { name: 'Save' }).first().click();
  await expectToastHeld(page);
  const onProfile = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  expect(onProfile.violations.flatMap((v) => v.nodes.map((n) => n.html))).toEqual([]);

  // An error toast: the sign-in page's ?error= notification.
  await page.goto('/signin?error=Something%20broke%20on%20the%20way%20back');
  await expect(await expectToastHeld(page)).toContainText('Something broke on the way back');
  const onSignIn = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  expect(onSignIn.violations.flatMap((v) => v.nodes.map((n) => n.html))).toEqual([]);
});

test('the dashboard welcome never covers a heading or a Copy button, on a phone and on a desktop', async ({
  page,
  request,
}) => {
  const who = await createUser(request, 'Wendy Welcome', 'polish-welcome');
  await useSessionOf(page, who);
  for (const { width, height } of PHONE_AND_DESKTOP) {
    await page.setViewportSize({ width, height });
    await page.goto('/dashboard');
    const welcome = page.getByText('Welcome, Wendy Welcome', { exact: true });
    await expect(welcome).toBeVisible();
    await expect(page.getByRole('button', { name: /Copy/ }).first()).toBeVisible();
    // The welcome is in the page, not in the notifications layer that floats over it.
    const floating = '[aria-label^="Notifications"]';
    expect(await welcome.evaluate((el, layer) => el.closest(layer) !== null, floating)).toBe(false);
    // No notification covers a heading or a Copy button: the topmost element at each one's centre
    // is not part of that layer.
    const targets = [
      ...(await page.getByRole('heading').all()),
      ...(await page.getByRole('button', { name: /Copy/ }).all()),
    ];
    for (const target of targets) {
      if (!(await target.isVisible())) continue;
      const box = (await target.boundingBox())!;
      if (box.y + box.height <= 0 || box.y >= height) continue;
      const covered = await page.evaluate(
        ([x, y, layer]) =>
          document.elementFromPoint(x as number, y as number)?.closest(layer as string) != null,
        [box.x + box.width / 2, box.y + box.height / 2, floating] as const,
      );
      expect(covered, `${await target.textContent()} is covered at ${width} px`).toBe(false);
    }
  }
});
