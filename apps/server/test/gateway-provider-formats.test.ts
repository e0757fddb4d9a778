import { asc, desc, eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import { COMPLETION, insertAccount, insertEndpoint, insertKey, type TMockUpstream } from './gateway-fixtures';
import type { TTestApp } from './helpers';
import { sharePricedRoute, startListeningApp, stopListeningApp } from './marketplace-helpers';
import {
  ANTHROPIC_KEY,
  CLAUDE_TEXT,
  GEMINI_KEY,
  GEMINI_TEXT,
  startAnthropicMock,
  startGeminiMock,
  type TProviderMock,
} from './provider-mocks';

// The official openai package through AIR to Anthropic- and Gemini-format upstreams (contract 6c):
// each call translated to the provider's format and its answer back, streamed and not.

let t: TTestApp;
let openaiMock: TMockUpstream;
let base: string;
let anthropicMock: TProviderMock;
let geminiMock: TProviderMock;
let client: OpenAI;
const ids: Record<string, string> = {};

type TRoute = {
  name: string;
  upstreams: { url: string; weight: number; format?: 'anthropic' | 'gemini' }[];
  headers: Record<string, string>;
  model?: string;
  retry?: { attempts: number; backoff_ms: number };
};

async function usageOf(route: string) {
  await gatewayStateOf(t.app).meter.flush();
  const [row] = await t.db
    .select()
    .from(usageEvents)
    .where(eq(usageEvents.endpointId, ids[route]!))
    .orderBy(desc(usageEvents.id))
    .limit(1);
  return row!;
}

const WEATHER: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

beforeAll(async () => {
  ({ t, upstream: openaiMock, base } = await startListeningApp());
  anthropicMock = await startAnthropicMock();
  geminiMock = await startGeminiMock();
  const account = await insertAccount(t.db, 'Formats');
  const key = await insertKey(t.db, t.config.secret, account.id);
  const routes: TRoute[] = [
    {
      name: 'claude/chat',
      upstreams: [{ url: `${anthropicMock.url}/v1/messages`, weight: 1, format: 'anthropic' }],
      headers: { 'x-api-key': ANTHROPIC_KEY },
      model: 'claude-sonnet-4-5',
    },
    {
      name: 'claude/missing',
      upstreams: [{ url: `${anthropicMock.url}/v1/messages`, weight: 1, format: 'anthropic' }],
      headers: { 'x-api-key': ANTHROPIC_KEY },
      model: 'claude-missing',
    },
    {
      name: 'gemini/chat',
      upstreams: [{ url: `${geminiMock.url}/v1beta`, weight: 1, format: 'gemini' }],
      headers: { 'x-goog-api-key': GEMINI_KEY },
      model: 'gemini-2.5-flash',
    },
    {
      name: 'gemini/wrong-key',
      upstreams: [{ url: `${geminiMock.url}/v1beta`, weight: 1, format: 'gemini' }],
      headers: { 'x-goog-api-key': 'wrong' },
      model: 'gemini-2.5-flash',
    },
    {
      // Anthropic overloaded (529) weighs 100 to 1: nearly every call tries it first.
      name: 'mixed/failover',
      upstreams: [
        { url: `${anthropicMock.url}/overloaded/v1/messages`, weight: 100, format: 'anthropic' },
        { url: `${openaiMock.url}/ok`, weight: 1 },
      ],
      headers: { 'x-api-key': ANTHROPIC_KEY, authorization: 'Bearer sk-openai-upstream' },
      retry: { attempts: 1, backoff_ms: 0 },
    },
  ];
  for (const route of routes) {
    const row = await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName: route.name,
      routeEndpoint: route.upstreams[0]!.url,
      upstreamHeaders: route.headers,
      ...(route.model ? { upstreamModel: route.model } : {}),
    });
    await t.db
      .update(aiEndpoints)
      .set({ routing: { upstreams: route.upstreams, ...(route.retry ? { retry: route.retry } : {}) } })
      .where(eq(aiEndpoints.id, row.id));
    ids[route.name] = row.id;
  }
  client = new OpenAI({ apiKey: key.raw, baseURL: `${base}/api/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await stopListeningApp({ t, upstream: openaiMock });
  await anthropicMock?.close();
  await geminiMock?.close();
});

/** Streams a chat call, joining content and each tool call's deltas as an SDK user would. */
async function streamed(params: Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming, 'stream'>) {
  const stream = await client.chat.completions.create({ ...params, stream: true });
  let text = '';
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | null | undefined;
  let chunks = 0;
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  for await (const chunk of stream) {
    chunks++;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    text += choice.delta.content ?? '';
    for (const call of choice.delta.tool_calls ?? []) {
      const entry = (calls[call.index] ??= { arguments: '' });
      if (call.id) entry.id = call.id;
      if (call.function?.name) entry.name = call.function.name;
      entry.arguments += call.function?.arguments ?? '';
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  return { text, finish, usage, calls, chunks };
}

describe('OpenAI in, Anthropic Messages out', () => {
  it('translates system, multi-part messages, images, sampling and stop; answers content and usage with cache tokens', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude/chat',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: PNG } },
          ],
        },
      ],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
    });
    expect(completion.choices[0]!.message.content).toBe(CLAUDE_TEXT);
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 7,
      total_tokens: 18,
      prompt_tokens_details: { cached_tokens: 3, cache_creation_tokens: 2 },
    });
    const seen = anthropicMock.seen.at(-1)!;
    expect(seen.path).toBe('/v1/messages');
    expect(seen.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 50,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
      ],
      temperature: 0.2,
      top_p: 0.9,
    });
    const row = await usageOf('claude/chat');
    expect([row.status, row.promptTokens, row.completionTokens, row.tokensEstimated]).toEqual([
      200,
      11,
      7,
      false,
    ]);
    // The request log's formats (decision 058): an OpenAI client, an Anthropic upstream.
    expect([row.clientFormat, row.upstreamFormat, row.requestedEndpointId]).toEqual([
      'openai',
      'anthropic',
      null,
    ]);
  });

  it('streams Anthropic events as chat chunks, metered from the translated usage', async () => {
    const plain = await streamed({
      model: 'claude/chat',
      messages: [{ role: 'user', content: 'Hi' }],
      stop: ['END'],
    });
    expect(plain.text).toBe('Hello');
    expect(plain.finish).toBe('stop');
    // The caller did not ask for usage: the usage chunk is not sent.
    expect(plain.usage).toBeUndefined();
    expect(anthropicMock.seen.at(-1)!.body).toMatchObject({
      stream: true,
      stop_sequences: ['END'],
      max_tokens: 4096,
    });
    let row = await usageOf('claude/chat');
    expect([row.streamed, row.promptTokens, row.completionTokens, row.tokensEstimated]).toEqual([
      true,
      11,
      7,
      false,
    ]);

    const withUsage = await streamed({
      model: 'claude/chat',
      messages: [{ role: 'user', content: 'Hi' }],
      stream_options: { include_usage: true },
    });
    expect(withUsage.text).toBe(CLAUDE_TEXT);
    expect(withUsage.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 7,
      prompt_tokens_details: { cached_tokens: 3 },
    });
    row = await usageOf('claude/chat');
    expect([row.promptTokens, row.completionTokens]).toEqual([11, 7]);
  });

  it('makes a full tool round trip, plain and streamed', async () => {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Weather in Paris?' },
    ];
    const first = await client.chat.completions.create({
      model: 'claude/chat',
      messages,
      tools: [WEATHER],
      tool_choice: 'auto',
    });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Let me check.');
    expect(choice.message.tool_calls).toEqual([
      {
        id: 'toolu_mock1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
    expect(anthropicMock.seen.at(-1)!.body).toMatchObject({
      tools: [
        {
          name: 'get_weather',
          description: 'The weather in a city',
          input_schema: WEATHER.function.parameters,
        },
      ],
      tool_choice: { type: 'auto' },
    });

    const live = await streamed({ model: 'claude/chat', messages, tools: [WEATHER] });
    expect(live.finish).toBe('tool_calls');
    expect(live.text).toBe('Let me check.');
    expect(live.calls).toEqual([{ id: 'toolu_mock1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);

    messages.push(choice.message, { role: 'tool', tool_call_id: 'toolu_mock1', content: '18C' });
    const answer = await client.chat.completions.create({ model: 'claude/chat', messages, tools: [WEATHER] });
    expect(answer.choices[0]!.message.content).toBe('Result: 18C');
    expect(anthropicMock.seen.at(-1)!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_mock1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_mock1', content: '18C' }] },
    ]);
  });

  it('answers JSON for response_format, through a forced tool, plain and streamed', async () => {
    const format = {
      type: 'json_schema' as const,
      json_schema: { name: 'place', schema: { type: 'object', properties: { city: { type: 'string' } } } },
    };
    const messages = [{ role: 'user' as const, content: 'Where?' }];
    const completion = await client.chat.completions.create({
      model: 'claude/chat',
      messages,
      response_format: format,
    });
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: 'Paris' });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
    const live = await streamed({ model: 'claude/chat', messages, response_format: format });
    expect(JSON.parse(live.text)).toEqual({ city: 'Paris' });
    expect([live.finish, live.calls.length]).toEqual(['stop', 0]);
  });

  it('refuses what it cannot translate with a 400 naming the field, and passes provider errors in OpenAI shape', async () => {
    const seen = anthropicMock.seen.length;
    const refused = await client.chat.completions
      .create({ model: 'claude/chat', messages: [{ role: 'user', content: 'Hi' }], n: 2 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('unsupported_parameter');
    expect((refused as Error).message).toContain('"n"');
    const penalty = await client.chat.completions
      .create({ model: 'claude/chat', messages: [{ role: 'user', content: 'Hi' }], logit_bias: { '1': 5 } })
      .catch((error: unknown) => error);
    expect((penalty as Error).message).toContain('"logit_bias" is not translated');
    expect(anthropicMock.seen.length).toBe(seen);

    const missing = await client.chat.completions
      .create({ model: 'claude/missing', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      message: 'model: claude-missing',
      type: 'not_found_error',
    });
    const row = await usageOf('claude/missing');
    expect(row.status).toBe(404);
  });

  it('fails over from an overloaded Anthropic upstream to an OpenAI one within one call, each sent its own auth', async () => {
    const attempts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { data, response } = await client.chat.completions
        .create({ model: 'mixed/failover', messages: [{ role: 'user', content: 'Hi' }] })
        .withResponse();
      expect(data.choices[0]!.message.content).toBe(COMPLETION.choices[0]!.message.content);
      attempts.push(response.headers.get('x-air-attempts')!);
    }
    // The 529 was retried on the OpenAI upstream (three calls all starting there: 1 in a million).
    expect(attempts).toContain('2');
    const overloaded = anthropicMock.seen.filter((seen) => seen.path.startsWith('/overloaded'));
    expect(overloaded.length).toBeGreaterThan(0);
    expect(overloaded.every((seen) => seen.headers.authorization === undefined)).toBe(true);
    const openaiSide = openaiMock.seen.at(-1)!;
    expect(openaiSide.headers['x-api-key']).toBeUndefined();
    expect(openaiSide.headers.authorization).toBe('Bearer sk-openai-upstream');
    const row = await usageOf('mixed/failover');
    expect([row.status, row.promptTokens]).toEqual([200, COMPLETION.usage.prompt_tokens]);
    // The upstream that answered is logged, not the one tried first.
    expect([row.clientFormat, row.upstreamFormat]).toEqual(['openai', 'openai']);
  });
});

describe('OpenAI in, Gemini generateContent out', () => {
  it('translates messages, images, sampling, n and JSON mode; answers choices and usage', async () => {
    const completion = await client.chat.completions.create({
      model: 'gemini/chat',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            { type: 'image_url', image_url: { url: PNG } },
          ],
        },
      ],
      max_completion_tokens: 64,
      temperature: 0.5,
      top_p: 0.8,
      stop: 'END',
      n: 2,
    });
    expect(
      completion.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason]),
    ).toEqual([
      [0, GEMINI_TEXT, 'stop'],
      [1, GEMINI_TEXT, 'stop'],
    ]);
    expect(completion.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 7,
      total_tokens: 18,
      completion_tokens_details: { reasoning_tokens: 2 },
    });
    const seen = geminiMock.seen.at(-1)!;
    expect(seen.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(seen.headers['x-goog-api-key']).toBe(GEMINI_KEY);
    expect(seen.body).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is in these?' },
            { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.png' } },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: {
        maxOutputTokens: 64,
        temperature: 0.5,
        topP: 0.8,
        candidateCount: 2,
        stopSequences: ['END'],
      },
    });
    const row = await usageOf('gemini/chat');
    expect([row.promptTokens, row.completionTokens]).toEqual([11, 7]);
    expect([row.clientFormat, row.upstreamFormat]).toEqual(['openai', 'gemini']);

    const json = await client.chat.completions.create({
      model: 'gemini/chat',
      messages: [{ role: 'user', content: 'Where?' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'place', schema: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    });
    expect(JSON.parse(json.choices[0]!.message.content!)).toEqual({ city: 'Paris' });
    expect(geminiMock.seen.at(-1)!.body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
    });
  });

  it('streams with alt=sse as chat chunks, metered', async () => {
    const live = await streamed({
      model: 'gemini/chat',
      messages: [{ role: 'user', content: 'Hi' }],
      stream_options: { include_usage: true },
    });
    expect(live.text).toBe(GEMINI_TEXT);
    expect(live.finish).toBe('stop');
    expect(live.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7 });
    expect(geminiMock.seen.at(-1)!.path).toBe(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    const row = await usageOf('gemini/chat');
    expect([row.streamed, row.promptTokens, row.completionTokens, row.tokensEstimated]).toEqual([
      true,
      11,
      7,
      false,
    ]);
  });

  it('makes a full tool round trip, the function named back from the tool call id', async () => {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Weather in Paris?' },
    ];
    const first = await client.chat.completions.create({
      model: 'gemini/chat',
      messages,
      tools: [WEATHER],
      tool_choice: 'required',
    });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && [call.function.name, call.function.arguments]).toEqual([
      'get_weather',
      '{"city":"Paris"}',
    ]);
    expect(geminiMock.seen.at(-1)!.body).toMatchObject({
      tools: [
        {
          functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: WEATHER.function.parameters }],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });
    const live = await streamed({ model: 'gemini/chat', messages, tools: [WEATHER] });
    expect(live.calls).toEqual([{ id: call.id, name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(live.finish).toBe('tool_calls');

    messages.push(first.choices[0]!.message, {
      role: 'tool',
      tool_call_id: call.id,
      content: '{"celsius":18}',
    });
    const answer = await client.chat.completions.create({ model: 'gemini/chat', messages, tools: [WEATHER] });
    expect(answer.choices[0]!.message.content).toBe('Result: {"celsius":18}');
    const contents = geminiMock.seen.at(-1)!.body.contents as unknown[];
    expect(contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris' } },
            thoughtSignature: 'c2lnbmF0dXJl',
          },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { celsius: 18 } } }] },
    ]);
  });

  it("passes Gemini's errors in OpenAI's shape with its message", async () => {
    const error = await client.chat.completions
      .create({ model: 'gemini/wrong-key', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      message: 'API key not valid. Please pass a valid API key.',
      type: 'invalid_request_error',
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('money and registration', () => {
  it('charges a priced Anthropic- or Gemini-format route the same as an OpenAI-format one for the same tokens', async () => {
    const PRICE = { per_call: 30_000, per_1m_input_tokens: 1_500_000, per_1m_output_tokens: 6_000_000 };
    const CALL_PICOS = 30_000 * 1_000_000 + 11 * 1_500_000 + 7 * 6_000_000;
    const provider = await newOwner(t.app, 'free');
    const caller = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    const priced = {
      openai: await sharePricedRoute(t.app, provider, 'priced/openai', `${openaiMock.url}/ok`, PRICE),
      anthropic: await sharePricedRoute(t.app, provider, 'priced/claude', `${openaiMock.url}/ok`, PRICE),
      gemini: await sharePricedRoute(t.app, provider, 'priced/gemini', `${openaiMock.url}/ok`, PRICE),
    };
    // Moved to the providers' formats through the API: the schema takes `format` per upstream.
    const moved = await send(t.app, provider.headers, 'PATCH', `/api/aiendpoint/${priced.anthropic}`, {
      config: {
        upstreams: [{ url: `${anthropicMock.url}/v1/messages`, format: 'anthropic' }],
        headers: { 'x-api-key': ANTHROPIC_KEY },
        upstream_model: 'claude-sonnet-4-5',
      },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const movedGemini = await send(t.app, provider.headers, 'PATCH', `/api/aiendpoint/${priced.gemini}`, {
      config: {
        upstreams: [{ url: `${geminiMock.url}/v1beta`, format: 'gemini' }],
        headers: { 'x-goog-api-key': GEMINI_KEY },
        upstream_model: 'gemini-2.5-flash',
      },
    });
    expect(movedGemini.statusCode, movedGemini.body).toBe(200);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/aiendpoint/${priced.anthropic}`,
      headers: provider.headers,
    });
    expect(read.json().data.config.upstreams).toEqual([
      { url: `${anthropicMock.url}/v1/messages`, weight: 1, format: 'anthropic' },
    ]);
    expect(read.json().data.route_endpoint).toBe(`${anthropicMock.url}/v1/messages`);
    const invalid = await send(t.app, provider.headers, 'PATCH', `/api/aiendpoint/${priced.gemini}`, {
      config: { upstreams: [{ url: `${geminiMock.url}/v1beta`, format: 'cohere' }] },
    });
    expect(invalid.statusCode).toBe(400);

    const callerKey = await insertKey(t.db, t.config.secret, caller.accountId);
    const buyer = new OpenAI({ apiKey: callerKey.raw, baseURL: `${base}/api/v1`, maxRetries: 0 });
    for (const route of ['priced/openai', 'priced/claude', 'priced/gemini'])
      await buyer.chat.completions.create({ model: route, messages: [{ role: 'user', content: 'Hi' }] });
    await gatewayStateOf(t.app).meter.flush();
    const costs = [];
    for (const id of [priced.openai, priced.anthropic, priced.gemini]) {
      const rows = await t.db
        .select()
        .from(usageEvents)
        .where(eq(usageEvents.endpointId, id))
        .orderBy(asc(usageEvents.id));
      costs.push(rows.map((row) => [row.promptTokens, row.completionTokens, row.costPicos]));
    }
    expect(costs).toEqual([[[11, 7, CALL_PICOS]], [[11, 7, CALL_PICOS]], [[11, 7, CALL_PICOS]]]);
  });
});
