import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf, withServer } from '../support/users';

/*
 * The core loop against the real server: a key created in the console, an endpoint registered in
 * the console pointing at a mock OpenAI-compatible upstream on loopback, the dashboard's cURL
 * snippet read from the page and run as is, the call seen in usage; the marketplace showing another
 * account's shared endpoint. (Their pictures: `npm run screenshots`; their accessibility: a11y.spec.ts.)
 */

const run = promisify(execFile);
const stamp = `${Date.now().toString(36)}`;

/** A minimal OpenAI-compatible upstream that remembers what it received. */
function startUpstream(): Promise<{ server: Server; url: string; received: unknown[] }> {
  const received: unknown[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body || '{}'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'mock',
          choices: [
            { index: 0, message: { role: 'assistant', content: 'pong from mock' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`,
        received,
      }),
    ),
  );
}

test('key, endpoint, dashboard cURL snippet through the gateway, usage, marketplace', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await withServer(startUpstream, async (upstream) => {
    const ann = await createUser(request, 'Ann Provider', 'ann');
    const bob = await createUser(request, 'Bob Other', 'bob');
    await useSessionOf(page, ann);

    // 1. A key, created in the console; its full value is shown once.
    await page.goto('/account/apikeys/create');
    await page.getByLabel('Name', { exact: false }).first().fill('E2E key');
    await page.getByRole('checkbox', { name: /gateway\.invoke/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const fullKey = (await page.getByTestId('full-key').textContent())!.trim();
    expect(fullKey).toMatch(/^air_[0-9A-Za-z]{40}$/);
    await page.getByRole('link', { name: 'Back to API keys' }).click();
    await expect(page.getByRole('cell', { name: 'E2E key', exact: true })).toBeVisible();

    // 2. An endpoint, registered in the console, pointing at the mock upstream.
    const route = `ann-${stamp}/echo`;
    await page.goto('/registry');
    await page.getByRole('button', { name: 'New' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Route name').fill(route);
    await dialog.getByLabel('Endpoint URL').fill(upstream.url);
    await expect(dialog.getByRole('combobox', { name: 'Type' })).toHaveText('AI Agent');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('cell', { name: route, exact: true })).toBeVisible();

    // 3. The dashboard's cURL snippet carries the origin, the key (masked on screen, whole in the
    // copied text: issue 38) and the route: copy it and run it.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/dashboard');
    const snippet = page.getByTestId('snippet-curl');
    await expect(snippet).toContainText(`x-api-key: ${fullKey.slice(0, 8)}…`);
    await expect(snippet).toContainText(`x-route-name: ${route}`);
    await page.getByRole('tabpanel').getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('tabpanel').getByRole('button', { name: 'Copied!' })).toBeVisible();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toContain(`x-api-key: ${fullKey}`);
    expect(curl).toContain(`'${new URL(page.url()).origin}/api/v1'`);
    const { stdout } = await run('sh', ['-c', curl], { timeout: 20_000 });
    const answer = JSON.parse(stdout) as { choices: { message: { content: string } }[] };
    expect(answer.choices[0]!.message.content).toBe('pong from mock');
    expect(upstream.received).toHaveLength(1);
    expect(upstream.received[0]).toMatchObject({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hello!' }],
    });

    // 4. The call shows in usage (metering is written in batches, so wait for it).
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await page.getByTestId('usage-total').textContent({ timeout: 5_000 }))?.trim();
        },
        { timeout: 20_000 },
      )
      .toBe('1');

    // 5. Bob shares a public endpoint; Ann's marketplace shows it and its details open read-only.
    const bobRoute = `bob-${stamp}/shared-model`;
    const created = await request.post('/api/aiendpoint', {
      headers: bob.headers,
      data: {
        name: 'Bob shared model',
        route_name: bobRoute,
        route_endpoint: upstream.url,
        route_type: 'model',
        isShared: true,
        isPrivate: false,
      },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    const bobId = ((await created.json()) as { data: { id: string } }).data.id;
    const described = await request.patch(`/api/aiendpoint/${bobId}`, {
      headers: bob.headers,
      data: { description: '<p>A <b>fast</b> model shared by Bob for everyone</p>' },
    });
    expect(described.status(), await described.text()).toBeLessThan(300);

    await page.goto('/mkt');
    const card = page.getByRole('listitem').filter({ hasText: bobRoute });
    await expect(card).toBeVisible();
    await expect(card.getByRole('heading', { name: 'Model' })).toBeVisible();
    await expect(card).toContainText('A fast model shared b...');
    await card.getByRole('link', { name: /Details/ }).click();
    // The catalog's endpoint page, as the public catalog opens it (issue 38 item 5).
    await expect(page).toHaveURL(new RegExp(`/marketplace/${bobRoute}$`));
    await expect(page.getByRole('heading', { level: 2, name: 'Try it' })).toBeVisible();
  });
});
