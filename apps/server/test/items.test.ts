import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEM_KINDS } from '@air/shared/schemas/item';
import { items } from '../src/db/schema';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, createApiKey, type TActor } from './support/actors';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type TMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
function call(method: TMethod, url: string, auth?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: auth ? bearer(auth) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function create(actor: TActor | string, kind: string, name: string): Promise<string> {
  const response = await call('POST', `/api/${kind}`, typeof actor === 'string' ? actor : actor.token, {
    name,
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.id as string;
}

async function row(id: string) {
  const [found] = await t.db.select().from(items).where(eq(items.id, id));
  return found;
}

describe.each(ITEM_KINDS)('/api/%s', (kind) => {
  let owner: TActor;
  beforeAll(async () => {
    owner = await createActor(t.app, { role: 'user' });
  });

  it('creates, lists, reads, renames and deletes names', async () => {
    const created = await call('POST', `/api/${kind}`, owner.token, { name: '  First  ' });
    expect(created.statusCode).toBe(201);
    const first = created.json().data;
    expect(first).toEqual({ id: expect.any(String), name: 'First', date_created: expect.any(String) });
    expect(created.json().message).toBe('Created');
    const second = await create(owner, kind, 'Second');

    const list = await call('GET', `/api/${kind}`, owner.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((i: { name: string }) => i.name)).toEqual(['Second', 'First']);

    const detail = await call('GET', `/api/${kind}/${first.id}`, owner.token);
    expect(detail.json().data).toEqual(first);

    const renamed = await call('PATCH', `/api/${kind}/${first.id}`, owner.token, { name: 'Renamed' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.name).toBe('Renamed');

    const deleted =
      kind === 'airoute'
        ? await call('DELETE', `/api/airoute/${first.id},${second}`, owner.token)
        : await call('DELETE', `/api/${kind}`, owner.token, [first.id, second]);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toEqual({ deleted: 2 });
    expect((await call('GET', `/api/${kind}`, owner.token)).json().data).toEqual([]);
  });

  it('validates the name', async () => {
    const missing = await call('POST', `/api/${kind}`, owner.token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ code: 'validation', message: 'Name is required', inputError: 'name' });
    const blank = await call('POST', `/api/${kind}`, owner.token, { name: '  ' });
    expect(blank.json().inputError).toBe('name');
    const long = await call('POST', `/api/${kind}`, owner.token, { name: 'x'.repeat(201) });
    expect(long.statusCode).toBe(400);
    const extra = await call('POST', `/api/${kind}`, owner.token, { name: 'ok', kind: 'air' });
    expect(extra.json().inputError).toBe('kind');
    expect((await call('GET', `/api/${kind}`, owner.token)).json().data).toEqual([]);
  });

  it("answers 404 to another account's token and key and changes nothing", async () => {
    const id = await create(owner, kind, 'Mine');
    const intruder = await createActor(t.app);
    const key = await createApiKey(t.app, intruder, ['aiendpoint.read', 'aiendpoint.write']);
    for (const auth of [intruder.token, key.key]) {
      expect((await call('GET', `/api/${kind}/${id}`, auth)).statusCode).toBe(404);
      expect((await call('PATCH', `/api/${kind}/${id}`, auth, { name: 'x' })).statusCode).toBe(404);
      expect((await call('DELETE', `/api/${kind}`, auth, [id])).statusCode).toBe(404);
      expect((await call('DELETE', `/api/${kind}/${id}`, auth)).statusCode).toBe(404);
      expect((await call('GET', `/api/${kind}`, auth)).json().data).toEqual([]);
    }
    expect(await row(id)).toMatchObject({ name: 'Mine', accountId: owner.accountId, kind });
    await call('DELETE', `/api/${kind}/${id}`, owner.token);
  });
});

describe('items', () => {
  it('keeps each kind separate', async () => {
    const owner = await createActor(t.app);
    const id = await create(owner, 'newitem', 'only a newitem');
    expect((await call('GET', `/api/newitemtwo/${id}`, owner.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/air/${id}`, owner.token, { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', '/api/search', owner.token, [id])).statusCode).toBe(404);
    expect((await call('GET', '/api/endpointtest', owner.token)).json().data).toEqual([]);
    expect((await row(id))!.name).toBe('only a newitem');
  });

  it('deletes all or nothing, and accepts { ids }', async () => {
    const owner = await createActor(t.app);
    const other = await createActor(t.app);
    const mine = await create(owner, 'search', 'a');
    const theirs = await create(other, 'search', 'b');
    expect((await call('DELETE', '/api/search', owner.token, [mine, theirs])).statusCode).toBe(404);
    expect(await row(mine)).toBeDefined();
    expect((await call('DELETE', '/api/search', owner.token, { ids: [mine] })).statusCode).toBe(200);
    expect(await row(mine)).toBeUndefined();
  });

  it('needs credentials; keys need the registry scopes', async () => {
    expect((await call('GET', '/api/newitem')).statusCode).toBe(401);
    expect((await call('POST', '/api/newitem', undefined, {})).statusCode).toBe(401);
    const owner = await createActor(t.app);
    const read = await createApiKey(t.app, owner, ['aiendpoint.read']);
    const usage = await createApiKey(t.app, owner, ['usage.read']);
    expect((await call('GET', '/api/newitem', read.key)).statusCode).toBe(200);
    expect((await call('POST', '/api/newitem', read.key, { name: 'x' })).statusCode).toBe(403);
    expect((await call('GET', '/api/newitem', usage.key)).statusCode).toBe(403);
    const unverified = await createActor(t.app, { verified: false });
    expect((await call('GET', '/api/newitem', unverified.token)).statusCode).toBe(200);
    expect((await call('POST', '/api/newitem', unverified.token, { name: 'x' })).statusCode).toBe(403);
  });
});
