import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, type TActor } from './support/actors';

/*
 * Decision 051: every console call's path params and query are validated from its entry in the
 * shared call table (core/route.ts), so a bad one is the wire's 400 naming it in `inputError`, in
 * the caller's language, and a call that takes no query refuses any parameter rather than
 * ignoring it. A refused write changes nothing.
 */
let t: TTestApp;
let owner: TActor;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createActor(t.app, { role: 'owner' });
});
afterAll(async () => {
  await t?.close();
});

async function refused(method: 'GET' | 'PATCH' | 'DELETE', url: string, payload?: object, lang = 'en') {
  const answer = await t.app.inject({
    method,
    url,
    headers: { ...bearer(owner.token), 'accept-language': lang },
    ...(payload ? { payload } : {}),
  });
  expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBe(400);
  const body = answer.json() as { code: string; message: string; inputError?: string };
  expect(body.code).toBe('validation');
  return body;
}

describe('params and query from the call table', () => {
  it('refuses a path parameter its entry does not accept, naming it', async () => {
    expect((await refused('GET', '/api/key/not-a-uuid')).inputError).toBe('id');
    expect((await refused('DELETE', '/api/user/sessions/x')).inputError).toBe('id');
    expect((await refused('GET', '/api/marketplace/Bad%20Slug/x')).inputError).toBe('provider');
    expect((await refused('GET', '/api/invite/short')).inputError).toBe('token');
  });

  it('refuses a query value its entry does not accept, naming it (in Spanish too)', async () => {
    expect((await refused('GET', '/api/marketplace?sort=cheapest')).inputError).toBe('sort');
    expect((await refused('GET', '/api/account/usage/log?status=3xx')).inputError).toBe('status');
    const spanish = await refused('GET', '/api/account/plan/preview', undefined, 'es');
    expect(spanish.inputError).toBe('plan');
    expect(spanish.message).not.toMatch(/required/i);
  });

  it('refuses a query parameter a call does not take instead of ignoring it', async () => {
    expect((await refused('GET', '/api/key?fuzz=1')).inputError).toBe('fuzz');
    expect((await refused('GET', '/api/aiendpoint?page=2')).inputError).toBe('page');
    expect((await refused('GET', '/api/account/usage/log?nope=1')).inputError).toBe('nope');
  });

  it('changes nothing when a write is refused for its query', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/newitem',
      headers: bearer(owner.token),
      payload: { name: 'kept' },
    });
    const id = (created.json() as { data: { id: string } }).data.id;
    const body = await refused('PATCH', `/api/newitem/${id}?force=1`, { name: 'changed' });
    expect(body.inputError).toBe('force');
    const read = await t.app.inject({ url: `/api/newitem/${id}`, headers: bearer(owner.token) });
    expect((read.json() as { data: { name: string } }).data.name).toBe('kept');
  });
});
