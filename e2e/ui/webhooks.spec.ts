import { createServer, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import { Webhook } from 'standardwebhooks';
import { allowRefusals, expect, test } from '../support/fixtures';
import { createUser, useSessionOf } from '../support/users';

/*
 * The Webhooks page (issue 42 item 4): an admin adds a webhook with its events, sees the signing
 * secret once, sends the test event to a receiver on this machine and sees it delivered in the
 * log; the receiver checks the signature with the standardwebhooks package.
 */

test('an admin adds a webhook, copies its secret once, and sends a test event that is delivered signed', async ({
  page,
  request,
  consoleErrors,
}) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const { port } = receiver.address() as { port: number };
  try {
    const owner = await createUser(request, 'Hook Owner', 'webhooks');
    await useSessionOf(page, owner);
    await page.goto('/account');
    await page.getByRole('link', { name: 'Manage webhooks' }).click();
    await expect(page).toHaveURL(/\/account\/webhooks$/);
    await expect(page.getByText('No webhooks yet.')).toBeVisible();

    // Plain HTTP to a public address is refused on the field.
    await page.getByLabel('Endpoint URL').fill('http://93.184.215.14/hook');
    await page.getByRole('checkbox', { name: 'key.created' }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByText('Webhook URLs must use https://')).toBeVisible();
    allowRefusals(consoleErrors, [400]);

    await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${port}/hook`);
    await page.getByRole('checkbox', { name: 'key.revoked' }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const card = page.getByRole('listitem').filter({ hasText: `127.0.0.1:${port}` });
    await expect(card).toContainText('key.created');
    await expect(card).toContainText('key.revoked');

    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect(card.getByRole('table', { name: 'Deliveries' })).toContainText('webhook.test');
    await expect(card.getByRole('table', { name: 'Deliveries' })).toContainText('Delivered', {
      timeout: 15_000,
    });
    expect(received).toHaveLength(1);
    const headers = {
      'webhook-id': String(received[0]!.headers['webhook-id']),
      'webhook-timestamp': String(received[0]!.headers['webhook-timestamp']),
      'webhook-signature': String(received[0]!.headers['webhook-signature']),
    };
    expect(new Webhook(secret.slice('whsec_'.length)).verify(received[0]!.body, headers)).toMatchObject({
      type: 'webhook.test',
    });

    // The secret is shown once: not after a reload, nor in the list's answer.
    await page.reload();
    await expect(card).toBeVisible();
    await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);

    // Paused, then deleted.
    await card.getByRole('button', { name: 'Pause' }).click();
    await expect(card).toContainText('Paused');
    await card.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No webhooks yet.')).toBeVisible();
  } finally {
    receiver.close();
  }
});

test('the Webhooks page in Spanish and dark mode on a phone', async ({ page, request }) => {
  const owner = await createUser(request, 'Hook Es', 'webhooks-es');
  await page.setViewportSize({ width: 390, height: 844 });
  await useSessionOf(page, owner, 'dark');
  await page.addInitScript(() => localStorage.setItem('air.locale', 'es'));
  await page.goto('/account/webhooks');
  await expect(page.getByRole('button', { name: 'Añadir webhook' })).toBeVisible();
  await expect(page.getByText('Todavía no hay webhooks.')).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
});
