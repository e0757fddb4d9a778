import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { embed, generateText, streamText } from 'ai';
import { desc, eq } from 'drizzle-orm';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints, apiKeys, cards, spendLimits, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { createTestApp, type TTestApp } from './helpers';
import { insertAccount, insertEndpoint, insertKey } from './gateway-fixtures';

// The OpenAI surface beyond chat (contract 6c, issue 39): responses, embeddings, completions and
// models, through the official SDK and the AI SDK, on one call pipeline.

const RESPONSE = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'up-model',
  output: [
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hello from responses', annotations: [] }],
    },
  ],
  usage: { input_tokens: 7, output_tokens: 4, total_tokens: 11 },
};
const EMBEDDING = {
  object: 'list',
  data: [{ object: 'embedding', index: 0, embedding: [0.5, 0.25] }],
  model: 'up-model',
  usage: { prompt_tokens: 5, total_tokens: 5 },
};
const TEXT_COMPLETION = {
  id: 'cmpl_1',
  object: 'text_completion',
  created: 1,
  model: 'up-model',
  choices: [{ text: 'legacy text', index: 0, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

function sse(events: object[]): string {
  return events
    .map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join('');
}

const RESPONSE_STREAM = sse([
  {
    type: 'response.created',
    sequence_number: 0,
    response: { ...RESPONSE, status: 'in_progress', output: [], usage: null },
  },
  {
    type: 'response.output_text.delta',
    sequence_number: 1,
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta: 'Hello ',
  },
  {
    type: 'response.output_text.delta',
    sequence_number: 2,
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta: 'stream',
  },
  {
    type: 'response.completed',
    sequence_number: 3,
    response: { ...RESPONSE, usage: { input_tokens: 9, output_tokens: 2, total_tokens: 11 } },
  },
]);

interface TSeen {
  path: string;
  body: string;
}

/** An upstream serving the OpenAI paths; `/down/...` answers 503 (for fallbacks). */
function startUpstream(): Promise<{ url: string; seen: TSeen[]; server: Server }> {
  const seen: TSeen[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString();
      seen.push({ path: req.url!, body });
      const json = (value: object, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url!.startsWith('/down/')) return json({ error: { message: 'down' } }, 503);
      if (req.url === '/v1/responses') {
        if ((JSON.parse(body) as { stream?: boolean }).stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return res.end(RESPONSE_STREAM);
        }
        return json(RESPONSE);
      }
      if (req.url === '/v1/embeddings') return json(EMBEDDING);
      if (req.url === '/v1/completions') return json(TEXT_COMPLETION);
      json({ error: { message: `no ${req.url}` } }, 404);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server }),
    ),
  );
}

let t: TTestApp;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let client: OpenAI;
let base = '';
let rawKey = '';
const ids: Record<string, string> = {};

async function lastUsage(endpointId: string) {
  await gatewayStateOf(t.app).meter.flush();
  const [row] = await t.db
    .select()
    .from(usageEvents)
    .where(eq(usageEvents.endpointId, endpointId))
    .orderBy(desc(usageEvents.id))
    .limit(1);
  return row!;
}

/** The body the upstream received last, as it was sent by the client (unchanged). */
function lastSeen(): TSeen {
  return upstream.seen.at(-1)!;
}

beforeAll(async () => {
  upstream = await startUpstream();
  t = await createTestApp({ upstreamAllowPrivate: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const account = await insertAccount(t.db, 'Surface');
  rawKey = (await insertKey(t.db, t.config.secret, account.id)).raw;
  const add = async (routeName: string, routeEndpoint: string) =>
    (ids[routeName] = (
      await insertEndpoint(t.db, t.config.secret, account.id, { routeName, routeEndpoint })
    ).id);
  await add('acme/all', `${upstream.url}/v1/chat/completions`);
  await add('acme/chat-only', `${upstream.url}/v1/chat`);
  await add('acme/cached', `${upstream.url}/v1/chat/completions`);
  await add('acme/fallback', `${upstream.url}/v1/chat/completions`);
  await add('acme/failing', `${upstream.url}/down/chat/completions`);
  await t.db
    .update(aiEndpoints)
    .set({ routing: { cache_ttl_s: 60 } })
    .where(eq(aiEndpoints.id, ids['acme/cached']!));
  await t.db
    .update(aiEndpoints)
    .set({ routing: { fallbacks: ['acme/fallback'] } })
    .where(eq(aiEndpoints.id, ids['acme/failing']!));
  client = new OpenAI({ apiKey: rawKey, baseURL: `${base}/api/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => upstream?.server.close(resolve));
});

describe('the official openai SDK beyond chat', () => {
  it('creates a response, sent unchanged to the sibling path, previous_response_id included', async () => {
    const request = { model: 'acme/all', input: 'Hi', previous_response_id: 'resp_0' };
    const response = await client.responses.create(request);
    expect(response.output_text).toBe('Hello from responses');
    expect(lastSeen().path).toBe('/v1/responses');
    expect(JSON.parse(lastSeen().body)).toEqual(request);
    const row = await lastUsage(ids['acme/all']!);
    expect([row.status, row.promptTokens, row.completionTokens, row.streamed]).toEqual([200, 7, 4, false]);
  });

  it('streams a response, its usage read from response.completed', async () => {
    const stream = await client.responses.create({ model: 'acme/all', input: 'Hi', stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('Hello stream');
    // The Responses API always sends usage: nothing is added to the body.
    expect(JSON.parse(lastSeen().body)).toEqual({ model: 'acme/all', input: 'Hi', stream: true });
    const row = await lastUsage(ids['acme/all']!);
    expect([row.promptTokens, row.completionTokens, row.streamed, row.tokensEstimated]).toEqual([
      9,
      2,
      true,
      false,
    ]);
  });

  it('creates embeddings, metered by input tokens', async () => {
    const answer = await client.embeddings.create({
      model: 'acme/all',
      input: 'a text',
      encoding_format: 'float',
    });
    expect(answer.data[0]!.embedding).toEqual([0.5, 0.25]);
    expect(lastSeen().path).toBe('/v1/embeddings');
    expect(JSON.parse(lastSeen().body)).toEqual({
      model: 'acme/all',
      input: 'a text',
      encoding_format: 'float',
    });
    const row = await lastUsage(ids['acme/all']!);
    expect([row.promptTokens, row.completionTokens]).toEqual([5, null]);
  });

  it('answers the same embeddings call from the cache', async () => {
    const request = { model: 'acme/cached', input: 'cache me', encoding_format: 'float' as const };
    await client.embeddings.create(request);
    const before = upstream.seen.length;
    const raw = await client.embeddings.create(request).withResponse();
    expect(raw.response.headers.get('x-air-cache')).toBe('hit');
    expect(upstream.seen.length).toBe(before);
    const row = await lastUsage(ids['acme/cached']!);
    expect([row.cacheHit, row.attempts, row.promptTokens]).toEqual([true, 0, 5]);
  });

  it('creates a legacy completion', async () => {
    const answer = await client.completions.create({ model: 'acme/all', prompt: 'Say' });
    expect(answer.choices[0]!.text).toBe('legacy text');
    expect(lastSeen().path).toBe('/v1/completions');
    const row = await lastUsage(ids['acme/all']!);
    expect([row.promptTokens, row.completionTokens]).toEqual([3, 2]);
  });

  it('falls back on a responses call', async () => {
    const raw = await client.responses.create({ model: 'acme/failing', input: 'Hi' }).withResponse();
    expect(raw.data.output_text).toBe('Hello from responses');
    expect(raw.response.headers.get('x-air-route')).toBe('acme/fallback');
    expect(upstream.seen.at(-2)!.path).toBe('/down/responses');
    expect(lastSeen().path).toBe('/v1/responses');
    expect(JSON.parse(lastSeen().body)).toEqual({ model: 'acme/fallback', input: 'Hi' });
    const row = await lastUsage(ids['acme/fallback']!);
    expect([row.status, row.promptTokens]).toEqual([200, 7]);
  });

  it('retrieves a model with its slash as is or as %2F, and lists them', async () => {
    const model = await client.models.retrieve('acme/all');
    expect(model).toMatchObject({ id: 'acme/all', object: 'model', owned_by: 'Surface', price: null });
    const encoded = await fetch(`${base}/api/v1/models/acme%2Fall`, {
      headers: { authorization: `Bearer ${rawKey}` },
    });
    expect(((await encoded.json()) as { id: string }).id).toBe('acme/all');
    await expect(client.models.retrieve('acme/none')).rejects.toMatchObject({ status: 404 });
    // Another account's shared priced route: listed with its owner and the price a call costs.
    const provider = await insertAccount(t.db, 'Provider Co');
    const priced = await insertEndpoint(t.db, t.config.secret, provider.id, {
      routeName: 'provider/priced',
      routeEndpoint: `${upstream.url}/v1/chat/completions`,
      isShared: true,
      isPrivate: false,
    });
    await t.db
      .update(aiEndpoints)
      .set({ pricePerCall: 2, pricePer1mInput: 300, pricePer1mOutput: 600 })
      .where(eq(aiEndpoints.id, priced.id));
    const list: Record<string, unknown>[] = [];
    for await (const model of client.models.list()) list.push({ ...model });
    expect(list.map((model) => model.id)).toContain('acme/all');
    expect(list.find((model) => model.id === 'provider/priced')).toMatchObject({
      owned_by: 'Provider Co',
      price: { per_call: 2, per_1m_input_tokens: 300, per_1m_output_tokens: 600 },
    });
  });

  it('refuses a protocol the route does not serve, naming those it does', async () => {
    const failure = await client.embeddings
      .create({ model: 'acme/chat-only', input: 'x' })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 404, code: 'unsupported_endpoint' });
    expect((failure as Error).message).toContain('serves: chat');
  });

  it('serves only the protocols its registration names', async () => {
    const account = await insertAccount(t.db, 'Registered');
    const key = await insertKey(t.db, t.config.secret, account.id);
    const endpoint = await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName: 'registered/some',
      routeEndpoint: `${upstream.url}/v1/chat/completions`,
    });
    await t.db
      .update(aiEndpoints)
      .set({ protocols: ['chat', 'embeddings'] })
      .where(eq(aiEndpoints.id, endpoint.id));
    const own = new OpenAI({ apiKey: key.raw, baseURL: `${base}/api/v1`, maxRetries: 0 });
    expect((await own.embeddings.create({ model: 'registered/some', input: 'x' })).data).toHaveLength(1);
    const failure = await own.responses
      .create({ model: 'registered/some', input: 'x' })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 404, code: 'unsupported_endpoint' });
    expect((failure as Error).message).toContain('serves: chat, embeddings');
  });
});

describe('every /api/v1 path answers in OpenAI shape', () => {
  it('404 on an unknown path, 405 with Allow on a wrong method', async () => {
    const unknown = await fetch(`${base}/api/v1/nothing/here`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rawKey}` },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        code: 'unknown_path',
        message: 'Unknown API path: POST /api/v1/nothing/here.',
      },
    });
    const wrong = await fetch(`${base}/api/v1/chat/completions`, {
      headers: { authorization: `Bearer ${rawKey}` },
    });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(await wrong.json()).toMatchObject({
      error: {
        code: 'method_not_allowed',
        message: 'GET is not allowed on /api/v1/chat/completions; allowed: POST.',
      },
    });
  });
});

describe('rate headers', () => {
  it('count the requests left in the minute down on every admitted call', async () => {
    const seen: [string | null, string | null, string | null][] = [];
    for (let i = 0; i < 3; i++) {
      const raw = await client.completions.create({ model: 'acme/all', prompt: 'Say' }).withResponse();
      const headers = raw.response.headers;
      seen.push([
        headers.get('x-ratelimit-limit-requests'),
        headers.get('x-ratelimit-remaining-requests'),
        headers.get('x-ratelimit-reset-requests'),
      ]);
    }
    const limit = Number(seen[0]![0]);
    expect(limit).toBeGreaterThan(3);
    const remaining = seen.map((entry) => Number(entry[1]));
    expect(remaining[1]).toBe(remaining[0]! - 1);
    expect(remaining[2]).toBe(remaining[0]! - 2);
    expect(seen.every((entry) => /^\d+s$/.test(entry[2] ?? ''))).toBe(true);
  });
});

describe('the AI SDK default provider (the Responses API)', () => {
  const provider = () => createOpenAI({ apiKey: rawKey, baseURL: `${base}/api/v1` });

  it('generates and streams text, and embeds', async () => {
    const generated = await generateText({ model: provider()('acme/all'), prompt: 'Hi' });
    expect(generated.text).toBe('Hello from responses');
    expect(lastSeen().path).toBe('/v1/responses');
    const streamed = streamText({ model: provider()('acme/all'), prompt: 'Hi' });
    let text = '';
    for await (const part of streamed.textStream) text += part;
    expect(text).toBe('Hello stream');
    const embedded = await embed({ model: provider().embedding('acme/all'), value: 'a text' });
    expect(embedded.embedding).toEqual([0.5, 0.25]);
  });
});

describe('LangChain with the Responses API', () => {
  it('invokes ChatOpenAI with useResponsesApi and embeds with OpenAIEmbeddings', async () => {
    const configuration = { baseURL: `${base}/api/v1` };
    const chat = new ChatOpenAI({
      model: 'acme/all',
      apiKey: rawKey,
      useResponsesApi: true,
      configuration,
      maxRetries: 0,
    });
    const message = await chat.invoke('Hi');
    expect(message.text).toBe('Hello from responses');
    expect(lastSeen().path).toBe('/v1/responses');
    const embeddings = new OpenAIEmbeddings({
      model: 'acme/all',
      apiKey: rawKey,
      configuration,
      maxRetries: 0,
    });
    expect(await embeddings.embedQuery('a text')).toEqual([0.5, 0.25]);
    expect(lastSeen().path).toBe('/v1/embeddings');
  });
});

describe('CORS on /api/v1 (real preflight requests)', () => {
  const page = 'https://page.example';

  it('answers a preflight without a key, for the path and headers asked', async () => {
    const answer = await fetch(`${base}/api/v1/responses`, {
      method: 'OPTIONS',
      headers: {
        origin: page,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-stainless-os',
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(page);
    expect(answer.headers.get('access-control-allow-methods')).toBe('POST');
    expect(answer.headers.get('access-control-allow-headers')).toBe(
      'authorization,content-type,x-stainless-os',
    );
  });

  it("answers a page only where its key lists the page's origin", async () => {
    const account = await insertAccount(t.db, 'Browser');
    const listed = await insertKey(t.db, t.config.secret, account.id);
    await t.db
      .update(apiKeys)
      .set({ allowedOrigins: [page] })
      .where(eq(apiKeys.id, listed.id));
    await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName: 'browser/all',
      routeEndpoint: `${upstream.url}/v1/chat/completions`,
    });
    const call = (key: string, origin: string) =>
      fetch(`${base}/api/v1/embeddings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', origin },
        body: JSON.stringify({ model: 'browser/all', input: 'x' }),
      });
    const allowed = await call(listed.raw, page);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(page);
    expect(allowed.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining-requests');
    const other = await call(listed.raw, 'https://elsewhere.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(await other.json()).toMatchObject({ error: { code: 'origin_not_allowed' } });
    // A key with no allowed origins (the default) is refused to any page.
    const unlisted = await insertKey(t.db, t.config.secret, account.id);
    expect((await call(unlisted.raw, page)).status).toBe(403);
    // The console's own pages (its playground) are not cross-origin.
    expect((await call(unlisted.raw, base)).status).toBe(200);
  });
});

describe('usage rows and spend for each endpoint', () => {
  // Another account's priced route, called by an account with a card on file (contract 5a).
  const PRICE = { per_call: 1_000, per_1m_input_tokens: 2_000_000, per_1m_output_tokens: 4_000_000 };
  const picos = (prompt: number, completion: number) =>
    PRICE.per_call * 1_000_000 + prompt * PRICE.per_1m_input_tokens + completion * PRICE.per_1m_output_tokens;

  it('meters and prices each protocol by its own usage fields (embeddings by input tokens)', async () => {
    const provider = await insertAccount(t.db, 'Seller');
    const endpoint = await insertEndpoint(t.db, t.config.secret, provider.id, {
      routeName: 'seller/priced',
      routeEndpoint: `${upstream.url}/v1/chat/completions`,
      isShared: true,
      isPrivate: false,
    });
    await t.db
      .update(aiEndpoints)
      .set({
        pricePerCall: PRICE.per_call,
        pricePer1mInput: PRICE.per_1m_input_tokens,
        pricePer1mOutput: PRICE.per_1m_output_tokens,
      })
      .where(eq(aiEndpoints.id, endpoint.id));
    const buyer = await insertAccount(t.db, 'Buyer');
    await t.db
      .insert(cards)
      .values({ accountId: buyer.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099 });
    const key = await insertKey(t.db, t.config.secret, buyer.id);
    const paying = new OpenAI({ apiKey: key.raw, baseURL: `${base}/api/v1`, maxRetries: 0 });
    const model = 'seller/priced';
    const expected: [string, number, number | null, number][] = [];
    await paying.responses.create({ model, input: 'Hi' });
    expected.push(['responses', 7, 4, picos(7, 4)]);
    await paying.embeddings.create({ model, input: 'a text' });
    expected.push(['embeddings', 5, null, picos(5, 0)]);
    await paying.completions.create({ model, prompt: 'Say' });
    expected.push(['completions', 3, 2, picos(3, 2)]);
    await gatewayStateOf(t.app).meter.flush();
    const rows = await t.db
      .select()
      .from(usageEvents)
      .where(eq(usageEvents.callerAccountId, buyer.id))
      .orderBy(usageEvents.id);
    expect(rows.map((row) => [row.status, row.endpointId, row.providerAccountId])).toEqual(
      expected.map(() => [200, endpoint.id, provider.id]),
    );
    // One row per call; the meter's batches need not keep the calls' order.
    const byPrompt = (a: unknown[], b: unknown[]) => Number(a[0]) - Number(b[0]);
    expect(rows.map((row) => [row.promptTokens, row.completionTokens, row.costPicos]).sort(byPrompt)).toEqual(
      expected.map(([, prompt, completion, cost]) => [prompt, completion, cost]).sort(byPrompt),
    );
  });

  it("bounds a limited caller's output in each protocol's own field, and leaves embeddings unchanged", async () => {
    const provider = await insertAccount(t.db, 'Seller 2');
    const endpoint = await insertEndpoint(t.db, t.config.secret, provider.id, {
      routeName: 'seller/limited',
      routeEndpoint: `${upstream.url}/v1/chat/completions`,
      isShared: true,
      isPrivate: false,
    });
    await t.db
      .update(aiEndpoints)
      .set({
        pricePerCall: PRICE.per_call,
        pricePer1mInput: PRICE.per_1m_input_tokens,
        pricePer1mOutput: PRICE.per_1m_output_tokens,
      })
      .where(eq(aiEndpoints.id, endpoint.id));
    const buyer = await insertAccount(t.db, 'Limited buyer');
    await t.db
      .insert(cards)
      .values({ accountId: buyer.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099 });
    await t.db.insert(spendLimits).values({ accountId: buyer.id, limitMinor: 100_000 });
    const key = await insertKey(t.db, t.config.secret, buyer.id);
    const paying = new OpenAI({ apiKey: key.raw, baseURL: `${base}/api/v1`, maxRetries: 0 });
    await paying.responses.create({ model: 'seller/limited', input: 'Hi' });
    expect(JSON.parse(lastSeen().body)).toEqual({
      model: 'seller/limited',
      input: 'Hi',
      max_output_tokens: 4096,
    });
    const embedding = { model: 'seller/limited', input: 'a text', encoding_format: 'float' as const };
    await paying.embeddings.create(embedding);
    expect(JSON.parse(lastSeen().body)).toEqual(embedding);
  });
});
