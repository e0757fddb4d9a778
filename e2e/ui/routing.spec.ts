import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../support/fixtures';
import { createUser, useSessionOf } from '../support/users';

/*
 * Routing and key controls against the real server (issue 23): two failing upstreams and a
 * fallback configured in the endpoint's Settings tab, a call through the gateway answered by the
 * fallback, its attempts in the request log and the upstreams' state on the Overview; a key made in
 * the console with a route allow-list and a monthly cap of one call.
 */

const stamp = Date.now().toString(36);

/** A loopback upstream answering every call with `status` (a completion when 200), counting them. */
function startUpstream(status: number): Promise<{ server: Server; url: string; calls: () => number }> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        status === 200
          ? JSON.stringify({
              id: 'chatcmpl-fallback',
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: 'mock',
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: 'from the fallback' },
                  finish_reason: 'stop',
                },
              ],
              usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
            })
          : JSON.stringify({ error: { message: 'down', type: 'server_error', code: 'down' } }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`,
        calls: () => calls,
      }),
    ),
  );
}

test('two upstreams and a fallback set in Settings; the request log shows the attempts; a capped key', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const first = await startUpstream(503);
  const second = await startUpstream(502);
  const backup = await startUpstream(200);
  try {
    const ann = await createUser(request, 'Ann Router', 'router');
    const main = `router-${stamp}/main`;
    const fallback = `router-${stamp}/backup`;
    const create = async (route_name: string, route_endpoint: string) => {
      const res = await request.post('/api/aiendpoint', {
        headers: ann.headers,
        data: { route_name, route_endpoint, route_type: 'model' },
      });
      expect(res.status(), await res.text()).toBe(201);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const mainId = await create(main, first.url);
    await create(fallback, backup.url);
    await useSessionOf(page, ann);

    // 1. Settings: a second upstream, one retry, the fallback picked from the routes Ann may call.
    await page.goto(`/aiendpoints/${mainId}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Routing and resilience' });
    await form.getByRole('button', { name: 'Add upstream' }).click();
    await form.getByRole('textbox', { name: 'Upstream URL 2' }).fill(second.url);
    // The contract's range is the form's rule, before anything is sent.
    await form.getByLabel('Retry attempts').fill('9');
    await form.getByRole('button', { name: 'Save routing' }).click();
    await expect(form.getByText('Retry attempts must be at most 5')).toBeVisible();
    await form.getByLabel('Retry attempts').fill('1');
    await form.getByLabel('Backoff (ms)').fill('0');
    await form.getByRole('combobox', { name: 'Choose a route' }).selectOption(fallback);
    await form.getByRole('button', { name: 'Add fallback' }).click();
    await form.getByRole('button', { name: 'Save routing' }).click();
    await expect(page.getByText('Saved').first()).toBeVisible();

    // 2. A call: both upstreams fail (one attempt each), the fallback answers.
    const key = await request.post('/api/key', {
      headers: ann.headers,
      data: { name: 'router key', scope: ['gateway.invoke'] },
    });
    const fullKey = ((await key.json()) as { data: { full_key: string } }).data.full_key;
    const answer = await request.post('/api/v1/chat/completions', {
      headers: { authorization: `Bearer ${fullKey}` },
      data: { model: main, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(answer.status()).toBe(200);
    expect(answer.headers()['x-air-route']).toBe(fallback);
    expect(answer.headers()['x-air-attempts']).toBe('3');
    expect([first.calls(), second.calls(), backup.calls()]).toEqual([1, 1, 1]);

    // 3. The Overview shows both upstreams, each with its failure of the last hour.
    await page.goto(`/aiendpoints/${mainId}`);
    const upstreams = page.getByRole('list', { name: 'Upstreams' });
    await expect(upstreams.locator('li[data-state="closed"]')).toHaveCount(2);
    await expect(upstreams.getByTestId('upstream-failures')).toHaveText(['1', '1']);

    // 4. The request log: one row, on the route that answered, with its three attempts.
    await expect
      .poll(
        async () => {
          await page.goto('/account/usage');
          const log = page.getByRole('table', { name: 'Request log' });
          await log.waitFor({ timeout: 5_000 }).catch(() => {});
          const row = log.locator('tbody tr').filter({ hasText: fallback });
          return (await row.count()) > 0
            ? (await row.getByTestId('log-attempts').textContent())?.trim()
            : null;
        },
        { timeout: 20_000 },
      )
      .toBe('3');
    // It names the route Ann asked for, and the formats the call went between (decision 058).
    const row = page
      .getByRole('table', { name: 'Request log' })
      .locator('tbody tr')
      .filter({ hasText: fallback });
    await expect(row.getByTestId('log-asked')).toHaveText(`asked for ${main}`);
    await expect(row.getByTestId('log-format')).toHaveText('OpenAI → OpenAI');

    // 5. A key made in the console that may call only the fallback route, once a month.
    await page.goto('/account/apikeys/create');
    await page.getByLabel('Name', { exact: false }).first().fill('capped key');
    await page.getByRole('checkbox', { name: /gateway\.invoke/ }).check();
    await page.getByRole('checkbox', { name: fallback }).click();
    await page.getByLabel('Monthly calls', { exact: false }).fill('1');
    await page.getByRole('button', { name: 'Create key' }).click();
    const capped = (await page.getByTestId('full-key').textContent())!.trim();
    const callWith = (model: string) =>
      request.post('/api/v1/chat/completions', {
        headers: { authorization: `Bearer ${capped}` },
        data: { model, messages: [{ role: 'user', content: 'Hi' }] },
      });
    const outside = await callWith(main);
    expect(outside.status()).toBe(404);
    expect(((await outside.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
    expect((await callWith(fallback)).status()).toBe(200);
    const over = await callWith(fallback);
    expect(over.status()).toBe(429);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('key_quota_exceeded');
  } finally {
    first.server.close();
    second.server.close();
    backup.server.close();
  }
});
