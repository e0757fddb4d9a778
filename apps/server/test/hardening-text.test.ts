import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, type TActor } from './support/actors';

/*
 * Issue 21, item 3: a lone UTF-16 surrogate (`"\ud800"` in raw JSON) is a 400 naming the field at
 * the JSON body parser, for every route, instead of a 500 when PostgreSQL refuses the jsonb.
 */

let t: TTestApp;
let owner: TActor;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createActor(t.app);
});
afterAll(async () => {
  await t?.close();
});

function post(url: string, rawJson: string, token = owner.token) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: rawJson,
  });
}

describe('lone surrogates in a JSON body', () => {
  it.each([
    ['/api/key', '{"name":"k\\ud800","scope":["gateway.invoke"]}', 'name'],
    ['/api/event', '{"name":"page.view","metadata":{"note":"\\udfff x"}}', 'metadata.note'],
    ['/api/event', '{"name":"page.view","metadata":{"n\\ud800te":"x"}}', 'metadata.nte'],
    ['/api/invite', '{"email":"a\\ud800@example.com","permission":"user"}', 'email'],
    ['/api/aiendpoint', '{"route_name":"a/b","route_endpoint":"https://x.io","name":"\\uDBFF"}', 'name'],
  ])('POST %s %s is a 400 on %s', async (url, raw, field) => {
    const response = await post(url, raw);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      code: 'validation',
      inputError: field,
      message: expect.stringMatching(/valid Unicode text/),
    });
    // Spanish too.
    const es = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(owner.token), 'content-type': 'application/json', 'accept-language': 'es' },
      payload: raw,
    });
    expect(es.json().message).toMatch(/texto Unicode válido/);
  });

  it('stores a surrogate pair (an emoji) written as escapes, and nothing was written by a refusal', async () => {
    const before = await t.app.inject({ url: '/api/key', headers: bearer(owner.token) });
    const ok = await post('/api/key', '{"name":"smile \\ud83d\\ude00","scope":["gateway.invoke"]}');
    expect(ok.statusCode, ok.body).toBeLessThan(300);
    const after = (await t.app.inject({ url: '/api/key', headers: bearer(owner.token) })).json().data;
    expect(after).toHaveLength(before.json().data.length + 1);
    expect(after.map((k: { name: string }) => k.name)).toContain('smile 😀');
    expect(after.map((k: { name: string }) => k.name)).not.toContain('k\ud800');
  });

  it('broken UTF-8 bytes become U+FFFD, never a 500; a query string is checked the same way', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"page.view","metadata":{"note":"'),
      Buffer.from([0xed, 0xa0, 0x80, 0xff]),
      Buffer.from('"}}'),
    ]);
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/event',
      headers: { ...bearer(owner.token), 'content-type': 'application/json' },
      payload: bytes,
    });
    expect(raw.statusCode, raw.body).toBe(201);
    const query = await t.app.inject({
      url: '/api/account/activity?member=%ED%A0%80',
      headers: bearer(owner.token),
    });
    expect(query.statusCode, query.body).toBe(400);
  });
});
