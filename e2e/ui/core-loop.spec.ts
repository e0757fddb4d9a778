import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, linkFrom, test, waitForMail } from '../support/fixtures';

/*
 * The core loop against the real server: a key created in the console, an endpoint registered in
 * the console pointing at a mock OpenAI-compatible upstream on loopback, the dashboard's cURL
 * snippet read from the page and run as is, the call seen in usage; the marketplace showing another
 * account's shared endpoint. Then screenshots of every core-loop page at phone and desktop widths,
 * light and dark.
 */

const run = promisify(execFile);
const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/core-loop/', import.meta.url));
const PASSWORD = 'core-Loop!1';
const stamp = `${Date.now().toString(36)}`;

interface TUser {
  email: string;
  token: string;
  user: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Sign-up through the API, verification through the received mail, free plan, onboarded. */
async function createUser(request: APIRequestContext, name: string, tag: string): Promise<TUser> {
  const email = `core-${tag}-${stamp}@example.test`;
  const res = await request.post('/api/account', {
    data: { name, email, password: PASSWORD, confirm_password: '' },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  const headers = { Authorization: `Bearer ${token}` };
  const verifyToken = new URL(
    linkFrom(await waitForMail(email, /verif/i), '/signup/verify'),
  ).searchParams.get('token');
  for (const [method, url, data] of [
    ['post', '/api/user/verify', { token: verifyToken }],
    ['post', '/api/account/plan', { plan: 'free' }],
    ['patch', '/api/user', { onboarded: true }],
  ] as const) {
    const answer = await request[method](url, { data, headers });
    expect(answer.status(), `${url}: ${await answer.text()}`).toBeLessThan(300);
  }
  const user = (
    (await (await request.get('/api/user', { headers })).json()) as { data: Record<string, unknown> }
  ).data;
  return { email, token, user, headers };
}

async function useSessionOf(page: Page, who: TUser, theme: 'light' | 'dark' = 'light') {
  await page.addInitScript(
    ([token, user, mode]) => {
      localStorage.setItem('air.token', token);
      if (!localStorage.getItem('air.user')) localStorage.setItem('air.user', user);
      localStorage.setItem('air.theme', mode);
    },
    [who.token, JSON.stringify(who.user), theme] as const,
  );
}

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
  const upstream = await startUpstream();
  try {
    const ann = await createUser(request, 'Ann Provider', 'ann');
    const bob = await createUser(request, 'Bob Other', 'bob');
    await useSessionOf(page, ann);

    // 1. A key, created in the console; its full value is shown once.
    await page.goto('/account/apikeys/create');
    await page.getByLabel('Name', { exact: false }).first().fill('E2E key');
    await page.getByRole('checkbox', { name: 'gateway.invoke' }).click();
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
    await expect(dialog.getByRole('combobox')).toHaveText('AI Agent');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('cell', { name: route, exact: true })).toBeVisible();

    // 3. The dashboard's cURL snippet carries the origin, the key and the route: copy it and run it.
    await page.goto('/dashboard');
    const snippet = page.getByTestId('snippet-curl');
    await expect(snippet).toContainText(fullKey);
    await expect(snippet).toContainText(`x-route-name: ${route}`);
    const curl = (await snippet.textContent())!;
    expect(curl).toContain(`'${new URL(page.url()).origin}/api/v1'`);
    await page.getByRole('tabpanel').getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('tabpanel').getByRole('button', { name: 'Copied!' })).toBeVisible();
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
    await expect(page).toHaveURL(new RegExp(`/aiendpoints/${bobId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Bob shared model' })).toBeVisible();
    await expect(page.getByRole('switch', { name: 'Active' })).toBeDisabled();
  } finally {
    upstream.server.close();
  }
});

test('screenshots of the core-loop pages at 390 and 1280 px, light and dark', async ({
  browser,
  request,
}) => {
  test.setTimeout(480_000);
  mkdirSync(SHOTS, { recursive: true });
  const cy = await createUser(request, 'Cy Shots', 'shots');
  const key = await request.post('/api/key', {
    headers: cy.headers,
    data: { name: 'Screenshot key', scope: ['gateway.invoke', 'usage.read'] },
  });
  const keyId = ((await key.json()) as { data: { id: string } }).data.id;
  const ep = await request.post('/api/aiendpoint', {
    headers: cy.headers,
    data: {
      name: 'Screenshot endpoint',
      route_name: `cy-${stamp}/agent`,
      route_endpoint: 'https://upstream.example.com/v1/chat/completions',
      route_type: 'agent',
      isShared: true,
      isPrivate: false,
    },
  });
  const epId = ((await ep.json()) as { data: { id: string } }).data.id;
  await request.patch(`/api/aiendpoint/${epId}`, {
    headers: cy.headers,
    data: {
      description: '<p>An <b>agent</b> that answers questions about your documents.</p>',
      config: {
        headers: { 'x-upstream-key': 'secret-value' },
        upstream_model: 'gpt-4o-mini',
        timeout_ms: 30000,
      },
    },
  });
  const item = await request.post('/api/newitem', { headers: cy.headers, data: { name: 'First item' } });
  const itemId = ((await item.json()) as { data: { id: string } }).data.id;

  const pages: [string, string, ((p: Page) => Promise<void>)?][] = [
    ['dashboard', '/dashboard'],
    ['apikeys', '/account/apikeys'],
    ['apikey-create', '/account/apikeys/create'],
    ['apikey-edit', `/account/apikeys/edit?id=${keyId}`],
    ['registry', '/registry'],
    ['registry-shared', '/registry?tab=shared'],
    ['endpoint', `/aiendpoints/${epId}`],
    ['endpoint-settings', `/aiendpoints/${epId}`, (p) => p.getByRole('tab', { name: 'Settings' }).click()],
    ['mkt', '/mkt'],
    ['newitems', '/newitems'],
    ['newitem-detail', `/newitems/${itemId}`],
    ['airoutes-empty', '/airoutes'],
  ];
  for (const theme of ['light', 'dark'] as const) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
      await useSessionOf(page, cy, theme);
      for (const [name, path, act] of pages) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expect(page.getByRole('status')).toHaveCount(0);
        if (act) await act(page);
        await page.screenshot({ path: `${SHOTS}${name}-${width}-${theme}.png`, fullPage: true });
      }
      expect(errors, 'console errors').toEqual([]);
      await context.close();
    }
  }
});
