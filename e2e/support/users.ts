import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, linkFrom, waitForMail } from './fixtures';

/** The one password of every user the browser tests create through the API. */
export const PASSWORD = 'core-Loop!1';
// The worker index keeps two workers that load this in the same millisecond apart.
const stamp = `${Date.now().toString(36)}w${process.env.TEST_WORKER_INDEX ?? 0}`;
let counter = 0;

export interface TUser {
  email: string;
  name: string;
  token: string;
  user: Record<string, unknown>;
  headers: Record<string, string>;
}

export interface TCreateUserOptions {
  /**
   * `free` (default); `team` is paid with the embedded card processor's 4242 test card; `null`
   * stops after verification (no plan, not onboarded: the console's sign-up plan step is next).
   */
  plan?: 'free' | 'team' | null;
  /** Renames the new account (default: "<name>'s account"). */
  accountName?: string;
}

/**
 * Sign-up through the API, verification through the received mail, a plan, onboarded. The email is
 * `<tag>-<run>-<n>@example.test`, unique across every spec of a run.
 */
export async function createUser(
  request: APIRequestContext,
  name: string,
  tag: string,
  { plan = 'free', accountName }: TCreateUserOptions = {},
): Promise<TUser> {
  counter += 1;
  const email = `${tag}-${stamp}-${counter}@example.test`;
  const res = await request.post('/api/account', {
    data: { name, email, password: PASSWORD, confirm_password: '' },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  const headers = { Authorization: `Bearer ${token}` };
  const verifyToken = new URL(
    linkFrom(await waitForMail(email, /verif/i), '/signup/verify'),
  ).searchParams.get('token');
  const verified = await request.post('/api/user/verify', { data: { token: verifyToken }, headers });
  expect(verified.status(), await verified.text()).toBeLessThan(300);
  if (plan !== null) {
    const choice: Record<string, unknown> = { plan };
    if (plan !== 'free') {
      const card = await request.post('/api/billing/local/token', {
        headers,
        data: {
          number: '4242424242424242',
          exp_month: 12,
          exp_year: new Date().getFullYear() + 3,
          cvc: '123',
        },
      });
      expect(card.status(), await card.text()).toBeLessThan(300);
      choice.token = ((await card.json()) as { data: { id: string } }).data.id;
    }
    const profile = accountName ? { onboarded: true, account_name: accountName } : { onboarded: true };
    for (const [method, url, data] of [
      ['post', '/api/account/plan', choice],
      ['patch', '/api/user', profile],
    ] as const) {
      const answer = await request[method](url, { data, headers });
      expect(answer.status(), `${url}: ${await answer.text()}`).toBeLessThan(300);
    }
  }
  const user = (
    (await (await request.get('/api/user', { headers })).json()) as { data: Record<string, unknown> }
  ).data;
  return { email, name, token, user, headers };
}

/**
 * Puts a session (and a theme) in local storage before the console loads, as a sign-in would: once
 * per tab, so a sign-out or an account switch in the test is not undone by the next page load.
 */
export async function useSessionOf(page: Page, who: TUser, theme: 'light' | 'dark' = 'light') {
  await page.addInitScript(
    ([token, user, mode]) => {
      if (!sessionStorage.getItem('air.seeded')) {
        localStorage.setItem('air.token', token);
        localStorage.setItem('air.user', user);
        sessionStorage.setItem('air.seeded', '1');
      }
      localStorage.setItem('air.theme', mode);
    },
    [who.token, JSON.stringify(who.user), theme] as const,
  );
}

/**
 * An OpenAI-compatible upstream on loopback: `/ok` answers JSON (usage 4 + 6 tokens) or, when the
 * body asks `stream: true`, three SSE chunks a little apart; `/fail` answers 500.
 */
export function startUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url?.startsWith('/fail')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'upstream broke', type: 'server_error', code: 'boom' } }));
        return;
      }
      const parsed = JSON.parse(body || '{}') as { stream?: boolean };
      if (parsed.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const pieces = ['Streaming ', 'answer ', 'from the mock.'];
        let i = 0;
        const next = () => {
          if (i < pieces.length) {
            res.write(
              `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: pieces[i++] } }] })}\n\n`,
            );
            setTimeout(next, 150);
          } else res.end('data: [DONE]\n\n');
        };
        next();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'mock',
          choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/** Runs `body` with the loopback server `start` makes, and closes it after, whatever happens. */
export async function withServer<S extends { server: Server }>(
  start: () => Promise<S>,
  body: (server: S) => Promise<void>,
): Promise<void> {
  const started = await start();
  try {
    await body(started);
  } finally {
    started.server.close();
  }
}

/** Runs `body` with an upstream of startUpstream's, closed after it whatever happens. */
export function withUpstream(body: (upstream: { server: Server; url: string }) => Promise<void>) {
  return withServer(startUpstream, body);
}

export interface TSharedEndpoint {
  name: string;
  routeName: string;
  /** The upstream's address. */
  url: string;
  /** The catalog description (HTML). */
  description?: string;
  /** The price in minor units, set with a PATCH after the endpoint is made. */
  price?: { per_call: number; per_1m_input_tokens: number; per_1m_output_tokens: number };
}

/** A model endpoint `who` shares publicly in the marketplace (created 201, priced 200 when asked): its id. */
export async function createSharedEndpoint(
  request: APIRequestContext,
  who: TUser,
  { name, routeName, url, description, price }: TSharedEndpoint,
): Promise<string> {
  const created = await request.post('/api/aiendpoint', {
    headers: who.headers,
    data: {
      name,
      route_name: routeName,
      route_endpoint: url,
      route_type: 'model',
      isShared: true,
      isPrivate: false,
      ...(description === undefined ? {} : { description }),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  if (price) {
    const priced = await request.patch(`/api/aiendpoint/${id}`, {
      headers: who.headers,
      data: { config: { price } },
    });
    expect(priced.status(), await priced.text()).toBe(200);
  }
  return id;
}

/** A key (gateway.invoke, usage.read), an endpoint to /ok and one to /fail, and 3 + 2 calls. */
export async function seedTraffic(request: APIRequestContext, who: TUser, upstreamUrl: string, tag: string) {
  const key = await request.post('/api/key', {
    headers: who.headers,
    data: { name: 'Insight key', scope: ['gateway.invoke', 'usage.read'] },
  });
  expect(key.status(), await key.text()).toBe(201);
  const fullKey = ((await key.json()) as { data: { full_key: string } }).data.full_key;
  const endpoints: Record<string, string> = {};
  for (const [name, path] of [
    ['ok', '/ok'],
    ['fail', '/fail'],
  ] as const) {
    const created = await request.post('/api/aiendpoint', {
      headers: who.headers,
      data: {
        name: `Insight ${name}`,
        route_name: `insight-${tag}/${name}`,
        route_endpoint: `${upstreamUrl}${path}`,
        route_type: 'model',
      },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    endpoints[name] = ((await created.json()) as { data: { id: string } }).data.id;
  }
  const call = (route: string) =>
    request.post('/api/v1/chat/completions', {
      headers: { Authorization: `Bearer ${fullKey}`, 'x-route-name': route },
      data: { messages: [{ role: 'user', content: 'Hi' }] },
    });
  for (let i = 0; i < 3; i++) expect((await call(`insight-${tag}/ok`)).status()).toBe(200);
  for (let i = 0; i < 2; i++) expect((await call(`insight-${tag}/fail`)).status()).toBe(500);
  return { fullKey, endpoints };
}
