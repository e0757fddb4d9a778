import { test as base, expect } from '@playwright/test';
import { E2E_MAILBOX_URL } from './env';

export interface TReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Every page is watched: a console error or an uncaught exception fails the test. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      page.on('pageerror', (err) => errors.push(err.message));
      await use(errors);
      expect(errors, 'console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Chromium logs every 4xx answer as a console error. A test that provokes a refusal on purpose
 * (a wrong password, a used link) removes exactly those statuses before the fixture checks.
 */
export function allowRefusals(consoleErrors: string[], statuses: number[]) {
  const expected = statuses.map((s) => `Failed to load resource: the server responded with a status of ${s}`);
  for (let i = consoleErrors.length - 1; i >= 0; i -= 1) {
    if (expected.some((prefix) => consoleErrors[i]?.startsWith(prefix))) consoleErrors.splice(i, 1);
  }
}

/** Waits for a mail to `to` whose subject matches, from the loopback SMTP server. */
export async function waitForMail(to: string, subject?: RegExp, timeoutMs = 10_000): Promise<TReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = (await (await fetch(E2E_MAILBOX_URL)).json()) as TReceivedMail[];
    const found = mails
      .reverse()
      .find((m) => m.to.toLowerCase().includes(to.toLowerCase()) && (!subject || subject.test(m.subject)));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}

/** The first link in a mail's text that points at `path` on the app. */
export function linkFrom(mail: TReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s"<>]+${path.replace(/[/?]/g, '\\$&')}[^\\s"<>]*`).exec(mail.text);
  if (!match) throw new Error(`No ${path} link in mail "${mail.subject}"`);
  return match[0];
}
