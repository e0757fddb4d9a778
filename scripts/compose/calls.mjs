// `npm run test:compose`: the calls the checks make through the proxy — the console API, an
// account with a key and an endpoint, gateway calls one at a time or as a load, and their counts.
import { until } from './run.mjs';

export async function api(base, method, url, { token, body } = {}) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** Signs up, verifies the address from the mail, picks a plan: a session token. */
export async function signUp(base, mockBase, name, plan) {
  const email = `${name}-${Date.now()}@example.test`;
  const password = 'Compose-test-1!';
  const { data } = await api(base, 'POST', '/api/account', {
    body: { name, email, password, confirm_password: '' },
  });
  const token = data.token;
  let verifyToken;
  await until(`the verification mail to ${email}`, 20_000, async () => {
    const mails = await (await fetch(`${mockBase}/mail`)).json();
    const mail = mails.find((m) => m.to.includes(email));
    verifyToken = mail && /\/signup\/verify\?token=([A-Za-z0-9._~-]+)/.exec(mail.text)?.[1];
    return Boolean(verifyToken);
  });
  await api(base, 'POST', '/api/user/verify', { token, body: { token: verifyToken } });
  const choice = { plan };
  if (plan !== 'free') {
    const card = await api(base, 'POST', '/api/billing/local/token', {
      token,
      body: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: '123' },
    });
    choice.token = card.data.id;
  }
  await api(base, 'POST', '/api/account/plan', { token, body: choice });
  return token;
}

/** A key and an endpoint to the mock upstream: what a gateway call needs. */
export async function keyAndEndpoint(base, token, tag) {
  const key = await api(base, 'POST', '/api/key', {
    token,
    body: { name: `compose ${tag}`, scope: ['gateway.invoke'] },
  });
  const route = `compose-${tag}/chat`;
  await api(base, 'POST', '/api/aiendpoint', {
    token,
    body: {
      name: `Compose ${tag}`,
      route_name: route,
      route_endpoint: 'http://mock:9000/v1/chat/completions',
      route_type: 'model',
    },
  });
  return { key: key.data.full_key, keyId: key.data.id, route };
}

/** One gateway call through the proxy (a completion, or with `get` the model list): its status (0: no answer), instance and times. */
export async function call(base, key, route, get = false) {
  const start = Date.now();
  const method = get ? 'GET' : 'POST';
  try {
    const response = await fetch(`${base}/api/v1/${get ? 'models' : 'chat/completions'}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: get ? undefined : JSON.stringify({ model: route, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    const body = await response.text();
    return {
      method,
      status: response.status,
      instance: response.headers.get('x-air-instance'),
      start,
      end: Date.now(),
      body,
    };
  } catch (error) {
    return { method, status: 0, instance: null, start, end: Date.now(), body: String(error.cause ?? error) };
  }
}

/**
 * `connections` callers calling back to back until `stop()`, one call in four a GET of the model
 * list (a request without a body, which every Caddy can send again); `calls` holds every result.
 */
export function load(base, key, route, connections) {
  const calls = [];
  let running = true;
  let n = 0;
  const workers = Array.from({ length: connections }, async () => {
    while (running) calls.push(await call(base, key, route, ++n % 4 === 0));
  });
  return {
    calls,
    async stop() {
      running = false;
      await Promise.all(workers);
      return calls;
    },
  };
}

export const count = (calls, predicate) => calls.filter(predicate).length;
export const byInstance = (calls) =>
  Object.entries(
    calls.reduce((acc, c) => ((acc[c.instance ?? 'none'] = (acc[c.instance ?? 'none'] ?? 0) + 1), acc), {}),
  )
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
export const describeFailures = (failures) =>
  failures
    .slice(0, 5)
    .map((c) => `${c.method} ${c.status} ${c.body.slice(0, 120)}`)
    .join('\n');
