import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, createApiKey, type TActor } from './support/actors';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp({ upstreamAllowPrivate: true });
});
afterAll(async () => {
  await t?.close();
});

async function create(actor: TActor, routeName: string, fields: Record<string, unknown>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/aiendpoint',
    headers: bearer(actor.token),
    payload: { route_name: routeName, route_endpoint: 'http://127.0.0.1:9/v1', name: routeName, ...fields },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.id as string;
}

function shared(auth?: string) {
  return t.app.inject({ method: 'GET', url: '/api/aiendpointShared', headers: auth ? bearer(auth) : {} });
}

describe('marketplace', () => {
  it('lists every active, shared, public endpoint of every account with its provider name', async () => {
    const alpha = await createActor(t.app, { accountName: 'Alpha AI' });
    const beta = await createActor(t.app, { accountName: 'Beta Models' });
    const listed = { isShared: true, isPrivate: false };
    const a1 = await create(alpha, 'alpha/agent', { ...listed, route_type: 'agent' });
    const b1 = await create(beta, 'beta/model', { ...listed, route_type: 'model' });
    await create(alpha, 'alpha/private', { isShared: true, isPrivate: true });
    await create(alpha, 'alpha/unshared', { isShared: false, isPrivate: false });
    await create(beta, 'beta/inactive', { ...listed, isActive: false });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/aiendpoint/${b1}`,
      headers: bearer(beta.token),
      payload: {
        description: '<p>Great <b>model</b></p><script>x()</script>',
        config: { headers: { authorization: 'Bearer sk-never-shown' }, upstream_model: 'hidden-model' },
      },
    });

    const viewer = await createActor(t.app, { role: 'user' });
    const response = await shared(viewer.token);
    expect(response.statusCode).toBe(200);
    const data = response.json().data as Array<Record<string, unknown>>;
    expect(data.map((e) => e.route_name).sort()).toEqual(['alpha/agent', 'beta/model']);
    expect(data.find((e) => e.id === b1)).toEqual({
      id: b1,
      name: 'beta/model',
      route_name: 'beta/model',
      route_type: 'model',
      isActive: true,
      isPrivate: false,
      isShared: true,
      protocol: 'openai',
      model_id: null,
      account_orgDisplayName: 'Beta Models',
      config: { description: '<p>Great <b>model</b></p>' },
    });
    expect(data.find((e) => e.id === a1)).toMatchObject({ account_orgDisplayName: 'Alpha AI' });
    expect(response.body).not.toMatch(/127\.0\.0\.1|route_endpoint|sk-never-shown|hidden-model/);
  });

  it("hides a closed account's endpoints, in the list and by id; its own owner still sees them", async () => {
    const gone = await createActor(t.app, { accountName: 'Gone AI' });
    const id = await create(gone, 'gone/agent', { isShared: true, isPrivate: false });
    await t.db.execute(sql`update accounts set closed_at = now() where id = ${gone.accountId}`);

    const viewer = await createActor(t.app, { role: 'user' });
    const data = (await shared(viewer.token)).json().data as Array<Record<string, unknown>>;
    expect(data.map((e) => e.route_name)).not.toContain('gone/agent');
    const byId = (auth: string) =>
      t.app.inject({ method: 'GET', url: `/api/aiendpoint/${id}`, headers: bearer(auth) });
    expect((await byId(viewer.token)).statusCode).toBe(404);
    const own = await byId(gone.token);
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ route_name: 'gone/agent', account_orgDisplayName: 'Gone AI' });
  });

  it('needs a signed-in user, or a key with aiendpoint.read', async () => {
    expect((await shared()).statusCode).toBe(401);
    const owner = await createActor(t.app);
    const read = await createApiKey(t.app, owner, ['aiendpoint.read']);
    const invoke = await createApiKey(t.app, owner, ['gateway.invoke']);
    expect((await shared(read.key)).statusCode).toBe(200);
    expect((await shared(invoke.key)).statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the registry, marketplace, key and item calls from the shared schemas', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    for (const path of [
      '/api/aiendpoint',
      '/api/aiendpoint/{id}',
      '/api/aiendpointShared',
      '/api/key',
      '/api/key/{id}',
      '/api/key/scopes',
      '/api/newitem',
      '/api/airoute/{id}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    // DELETE /api/aiendpoint/{ids} (one id or a list) is documented under the one {id} path
    // (redocly's no-ambiguous-paths, decision 046).
    expect(doc.paths['/api/aiendpoint/{id}'].delete).toBeDefined();
    expect(doc.paths['/api/airoute/{id}'].delete).toBeDefined();
    expect(doc.paths['/api/aiendpoint/{ids}']).toBeUndefined();
    const create = doc.paths['/api/aiendpoint'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(expect.arrayContaining(['route_name', 'route_endpoint']));
    const key = doc.paths['/api/key'].post.requestBody.content['application/json'].schema;
    expect(key.properties.scope.items.enum).toContain('gateway.invoke');
  });
});
