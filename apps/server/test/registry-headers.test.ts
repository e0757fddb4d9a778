import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints } from '../src/db/schema';
import { openHeaders } from '../src/modules/aiendpoint/wire';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, createApiKey, type TActor } from './support/actors';
import { insertEndpoint, startMockUpstream, type TMockUpstream } from './gateway-fixtures';

/*
 * Issue 37, item 5: an upstream header value the HTTP client cannot send (outside Latin-1, a
 * control character, whitespace at either end) used to be saved with 201, and then every call of
 * the route was a 502 that never reached the upstream. It is now refused at save, naming the header.
 */

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
let owner: TActor;
let gatewayKey: string;

beforeAll(async () => {
  upstream = await startMockUpstream();
  t = await createTestApp({ upstreamAllowPrivate: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await createActor(t.app);
  gatewayKey = (await createApiKey(t.app, owner, ['gateway.invoke'])).key;
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

let counter = 0;
function endpointBody(headers?: Record<string, string | null>) {
  counter += 1;
  return {
    route_name: `headers/case-${counter}`,
    route_endpoint: `${upstream.url}/ok`,
    name: 'Headers case',
    isShared: false,
    isPrivate: true,
    route_type: 'model',
    ...(headers ? { config: { headers } } : {}),
  };
}

function save(method: 'POST' | 'PATCH', url: string, payload: object, language = 'en') {
  return t.app.inject({
    method,
    url,
    headers: { ...bearer(owner.token), 'accept-language': language },
    payload,
  });
}

async function storedHeaders(id: string) {
  const [row] = await t.db.select().from(aiEndpoints).where(eq(aiEndpoints.id, id));
  return openHeaders(t.config.secret, row!.upstreamHeadersEnc);
}

/** One gateway call of a route with the owner's key. */
function invoke(routeName: string) {
  return fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gatewayKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: routeName, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

describe('registry: upstream header values that cannot be sent are refused at save', () => {
  const unsendable: [string, string][] = [
    ['a character outside Latin-1', 'Bearer sk-\u20ac'],
    ['an emoji', 'token \u{1F511}'],
    ['a control character', 'a\u0007b'],
    ['DEL', 'a\u007fb'],
    ['a line break', 'a\nb'],
    ['a leading space', ' token'],
    ['a trailing tab', 'token\t'],
  ];

  it.each(unsendable)('POST refuses %s with a 400 naming the header', async (_what, value) => {
    const response = await save('POST', '/api/aiendpoint', endpointBody({ 'X-Upstream-Key': value }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'validation',
      inputError: 'config.headers.X-Upstream-Key',
      message: expect.stringContaining('X-Upstream-Key'),
    });
  });

  it('PATCH refuses it too, in the caller language, and keeps the stored headers', async () => {
    const created = await save('POST', '/api/aiendpoint', endpointBody({ authorization: 'Bearer ok' }));
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;

    const english = await save('PATCH', `/api/aiendpoint/${id}`, {
      config: { headers: { authorization: 'Bearer \u20ac' } },
    });
    expect(english.statusCode).toBe(400);
    expect(english.json()).toEqual({
      code: 'validation',
      inputError: 'config.headers.authorization',
      message: expect.stringMatching(/^The value of header authorization can hold only visible characters/),
    });
    const spanish = await save(
      'PATCH',
      `/api/aiendpoint/${id}`,
      { config: { headers: { authorization: 'Bearer \u20ac' } } },
      'es',
    );
    expect(spanish.statusCode).toBe(400);
    expect(spanish.json().message).toMatch(/^El valor de la cabecera authorization solo puede/);
    expect(await storedHeaders(id)).toEqual({ authorization: 'Bearer ok' });
  });

  it('accepts what HTTP can carry (Latin-1 letters, spaces and tabs inside) and sends it upstream', async () => {
    const body = endpointBody({ 'x-team': 'caf\u00e9\tbar baz', 'x-empty': '' });
    const created = await save('POST', '/api/aiendpoint', body);
    expect(created.statusCode).toBe(201);

    const answer = await invoke(body.route_name);
    expect(answer.status).toBe(200);
    const seen = upstream.seen.at(-1)!;
    // Node reads header bytes as Latin-1: the upstream got é as one byte, the tab kept.
    expect(seen.headers['x-team']).toBe('caf\u00e9\tbar baz');
  });

  it('a value stored before the rule still answers 502 without taking the gateway down', async () => {
    // Rows saved before this check keep their value; the directory opens them as before.
    const old = await insertEndpoint(t.db, t.config.secret, owner.accountId, {
      routeName: 'headers/stored-before',
      routeEndpoint: `${upstream.url}/ok`,
      upstreamHeaders: { 'x-upstream-key': 'Bearer \u20ac' },
    });
    const seenBefore = upstream.seen.length;
    const refused = await invoke(old.routeName);
    expect(refused.status).toBe(502);
    expect((await refused.json()).error.code).toBe('upstream_unreachable');
    expect(upstream.seen.length).toBe(seenBefore);

    const good = endpointBody();
    expect((await save('POST', '/api/aiendpoint', good)).statusCode).toBe(201);
    expect((await invoke(good.route_name)).status).toBe(200);
  });
});
