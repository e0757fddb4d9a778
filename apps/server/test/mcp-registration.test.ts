import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, createApiKey, type TActor } from './support/actors';

// Issue 41 item 1 (contract 6d): an endpoint's top-level `protocol`, `openai` by default or `mcp`,
// on POST and PATCH, returned on GET and in the catalog; an MCP endpoint's URL passes the same
// address checks, is priced per call only and is no model of `/api/v1`.

let t: TTestApp;
let owner: TActor;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createActor(t.app, { accountName: 'Acme Docs' });
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const routeName = () => `acme-mcp/docs-${++counter}`;

function post(payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/aiendpoint',
    headers: bearer(owner.token),
    payload: { route_type: 'datasource', isShared: false, isPrivate: true, ...payload },
  });
}

async function read(id: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/aiendpoint/${id}`,
    headers: bearer(owner.token),
  });
  expect(response.statusCode).toBe(200);
  return response.json().data as Record<string, unknown>;
}

describe('MCP registration', () => {
  it('stores protocol mcp, answers it on GET and in the list; openai is the default', async () => {
    const mcp = await post({
      route_name: routeName(),
      route_endpoint: 'https://93.184.215.14/mcp',
      protocol: 'mcp',
      config: { headers: { authorization: 'Bearer upstream-secret' } },
    });
    expect(mcp.statusCode).toBe(201);
    const plain = await post({
      route_name: routeName(),
      route_endpoint: 'https://93.184.215.14/v1/chat/completions',
    });
    expect(plain.statusCode).toBe(201);
    const mcpRead = await read(mcp.json().data.id);
    expect(mcpRead.protocol).toBe('mcp');
    // Its upstream header is sealed and masked as any endpoint's.
    expect((mcpRead.config as { headers: Record<string, string> }).headers).toEqual({
      authorization: '********',
    });
    expect((await read(plain.json().data.id)).protocol).toBe('openai');
    const list = await t.app.inject({ method: 'GET', url: '/api/aiendpoint', headers: bearer(owner.token) });
    const protocols = Object.fromEntries(
      (list.json().data as { id: string; protocol: string }[]).map((row) => [row.id, row.protocol]),
    );
    expect(protocols[mcp.json().data.id]).toBe('mcp');
    expect(protocols[plain.json().data.id]).toBe('openai');
  });

  it('PATCH switches the protocol; an unknown one is refused and changes nothing', async () => {
    const created = await post({ route_name: routeName(), route_endpoint: 'https://93.184.215.14/mcp' });
    const id = created.json().data.id as string;
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/api/aiendpoint/${id}`, headers: bearer(owner.token), payload });
    expect((await patch({ protocol: 'mcp' })).statusCode).toBe(200);
    expect((await read(id)).protocol).toBe('mcp');
    const bad = await patch({ protocol: 'grpc' });
    expect(bad.statusCode).toBe(400);
    expect((await read(id)).protocol).toBe('mcp');
  });

  it('checks an MCP URL against the address policy like any upstream', async () => {
    for (const url of ['https://user:pw@93.184.215.14/mcp', 'ftp://93.184.215.14/mcp']) {
      const response = await post({ route_name: routeName(), route_endpoint: url, protocol: 'mcp' });
      expect(response.statusCode).toBe(400);
      expect(response.json().inputError).toBe('route_endpoint');
    }
  });

  it('prices an MCP endpoint per call only: a token price is refused', async () => {
    const tokens = await post({
      route_name: routeName(),
      route_endpoint: 'https://93.184.215.14/mcp',
      protocol: 'mcp',
      config: { price: { per_call: 20_000, per_1m_input_tokens: 1_000_000, per_1m_output_tokens: 0 } },
    });
    expect(tokens.statusCode).toBe(400);
    expect(tokens.json().inputError ?? tokens.body).toContain('config.price');
    const perCall = await post({
      route_name: routeName(),
      route_endpoint: 'https://93.184.215.14/mcp',
      protocol: 'mcp',
      config: { price: { per_call: 20_000, per_1m_input_tokens: 0, per_1m_output_tokens: 0 } },
    });
    expect(perCall.statusCode).toBe(201);
  });

  it('lists MCP endpoints in the catalog with their protocol, filtered by ?protocol=', async () => {
    const mcpName = routeName();
    const openaiName = routeName();
    const shared = { isShared: true, isPrivate: false };
    await post({
      ...shared,
      route_name: mcpName,
      route_endpoint: 'https://93.184.215.14/mcp',
      protocol: 'mcp',
    });
    await post({
      ...shared,
      route_name: openaiName,
      route_endpoint: 'https://93.184.215.14/v1/chat/completions',
    });
    const page = async (query: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/marketplace?provider=acme-mcp${query}`,
      });
      expect(response.statusCode).toBe(200);
      return response.json().data.items as { route_name: string; protocol: string }[];
    };
    const all = await page('');
    expect(all.find((item) => item.route_name === mcpName)?.protocol).toBe('mcp');
    expect(all.find((item) => item.route_name === openaiName)?.protocol).toBe('openai');
    expect((await page('&protocol=mcp')).map((item) => item.route_name)).toEqual([mcpName]);
    expect((await page('&protocol=openai')).map((item) => item.route_name)).toEqual([openaiName]);
    const one = await t.app.inject({ method: 'GET', url: `/api/marketplace/${mcpName}` });
    expect(one.json().data.protocol).toBe('mcp');
    // Its snippets call /api/mcp with the MCP SDKs and give a client's mcpServers entry, no OpenAI SDK.
    const snippets = one.json().data.snippets as Record<string, string>;
    expect(Object.keys(snippets).sort()).toEqual(['curl', 'mcp_servers', 'node', 'python']);
    const config = JSON.parse(snippets.mcp_servers!) as {
      mcpServers: Record<string, { url: string; headers: object }>;
    };
    expect(Object.values(config.mcpServers)[0]).toMatchObject({
      url: expect.stringMatching(new RegExp(`/api/mcp/${mcpName}$`)),
      headers: { Authorization: 'Bearer ${AIR_API_KEY}' },
    });
    expect(snippets.node).toContain('StreamableHTTPClientTransport');
    const chat = await t.app.inject({ method: 'GET', url: `/api/marketplace/${openaiName}` });
    expect(Object.keys(chat.json().data.snippets).sort()).toEqual(['curl', 'node', 'openai', 'python']);
  });

  it('is no model of /api/v1: not listed there, and a chat call names its MCP address', async () => {
    const name = routeName();
    await post({ route_name: name, route_endpoint: 'https://93.184.215.14/mcp', protocol: 'mcp' });
    const key = await createApiKey(t.app, owner, ['gateway.invoke']);
    const models = await t.app.inject({ method: 'GET', url: '/api/v1/models', headers: bearer(key.key) });
    expect(models.statusCode).toBe(200);
    expect((models.json().data as { id: string }[]).map((m) => m.id)).not.toContain(name);
    const chat = await t.app.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: { model: name, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.statusCode).toBe(404);
    expect(chat.json().error.code).toBe('unsupported_endpoint');
    expect(chat.json().error.message).toContain(`/api/mcp/${name}`);
  });
});
