import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { generateText, streamText } from 'ai';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { countTokens } from '../src/gateway/tokens';
import {
  COMPLETION,
  STREAM_USAGE,
  insertAccount,
  insertEndpoint,
  insertKey,
  type TMockUpstream,
} from './gateway-fixtures';
import type { TTestApp } from './helpers';
import { startListeningApp, stopListeningApp } from './marketplace-helpers';
import {
  ANTHROPIC_KEY,
  CLAUDE_TEXT,
  GEMINI_KEY,
  OPENAI_KEY,
  startAnthropicMock,
  startGeminiMock,
  startOpenAiMock,
  type TProviderMock,
} from './provider-mocks';

// The official Anthropic SDK as a gateway client (`POST /api/v1/messages`, contract 6c): passed
// through to an Anthropic upstream, translated to an OpenAI or a Gemini one and back.

let t: TTestApp;
let openaiMock: TMockUpstream;
let base: string;
let anthropicMock: TProviderMock;
let geminiMock: TProviderMock;
/** OpenAI's chat completions with tool calls (provider-mocks.ts; the fixtures' mock answers no tools). */
let toolsMock: TProviderMock;
let client: Anthropic;
let key = '';
const ids: Record<string, string> = {};

const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
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

/**
 * The route's newest row once it has `count` rows: a streamed call is metered when its upstream
 * stream ends, which may be a moment after the SDK has the last event.
 */
async function nthUsageOf(route: string, count: number) {
  for (let waited = 0; ; waited += 20) {
    await gatewayStateOf(t.app).meter.flush();
    const rows = await t.db
      .select()
      .from(usageEvents)
      .where(eq(usageEvents.endpointId, ids[route]!))
      // By call time: one batch's ids need not follow its rows' order.
      .orderBy(desc(usageEvents.createdAt), desc(usageEvents.id));
    if (rows.length >= count || waited > 2000) {
      expect(rows).toHaveLength(count);
      return rows[0]!;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  ({ t, upstream: openaiMock, base } = await startListeningApp());
  anthropicMock = await startAnthropicMock();
  geminiMock = await startGeminiMock();
  toolsMock = await startOpenAiMock();
  const account = await insertAccount(t.db, 'Anthropic clients');
  key = (await insertKey(t.db, t.config.secret, account.id)).raw;
  const routes: {
    name: string;
    upstream: { url: string; weight: number; format?: 'anthropic' | 'gemini' };
    headers: Record<string, string>;
    model?: string;
  }[] = [
    {
      name: 'claude/direct',
      upstream: { url: `${anthropicMock.url}/v1/messages`, weight: 1, format: 'anthropic' },
      headers: { 'x-api-key': ANTHROPIC_KEY },
      model: 'claude-sonnet-4-5',
    },
    {
      name: 'openai/behind',
      upstream: { url: `${openaiMock.url}/ok`, weight: 1 },
      headers: { authorization: 'Bearer sk-openai-upstream' },
    },
    {
      // The endpoint sets its own version (decision 054): the default for callers that send none.
      name: 'claude/pinned',
      upstream: { url: `${anthropicMock.url}/v1/messages`, weight: 1, format: 'anthropic' },
      headers: { 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-01-01' },
      model: 'claude-sonnet-4-5',
    },
    {
      name: 'openai/tools',
      upstream: { url: `${toolsMock.url}/v1/chat/completions`, weight: 1 },
      headers: { authorization: `Bearer ${OPENAI_KEY}` },
      model: 'gpt-4o',
    },
    {
      name: 'gemini/behind',
      upstream: { url: `${geminiMock.url}/v1beta`, weight: 1, format: 'gemini' },
      headers: { 'x-goog-api-key': GEMINI_KEY },
      model: 'gemini-2.5-flash',
    },
  ];
  for (const route of routes) {
    const row = await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName: route.name,
      routeEndpoint: route.upstream.url,
      upstreamHeaders: route.headers,
      ...(route.model ? { upstreamModel: route.model } : {}),
    });
    await t.db
      .update(aiEndpoints)
      .set({ routing: { upstreams: [route.upstream] } })
      .where(eq(aiEndpoints.id, row.id));
    ids[route.name] = row.id;
  }
  // What a developer sets: ANTHROPIC_BASE_URL at AIR's /api, the AIR key as the API key.
  client = new Anthropic({ apiKey: key, baseURL: `${base}/api`, maxRetries: 0 });
});

afterAll(async () => {
  await stopListeningApp({ t, upstream: openaiMock });
  await anthropicMock?.close();
  await geminiMock?.close();
  await toolsMock?.close();
});

describe('the Anthropic SDK through AIR to an Anthropic upstream', () => {
  it('passes the call through with the endpoint key, metered with cache tokens in the prompt', async () => {
    const message = await client.messages.create({
      model: 'claude/direct',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message.content).toMatchObject([{ type: 'text', text: CLAUDE_TEXT }]);
    const seen = anthropicMock.seen.at(-1)!;
    expect(seen.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(seen.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(seen.headers.authorization).toBeUndefined();
    const row = await usageOf('claude/direct');
    expect([row.status, row.promptTokens, row.completionTokens]).toEqual([200, 11, 7]);
    expect([row.clientFormat, row.upstreamFormat]).toEqual(['anthropic', 'anthropic']);
  });

  it('streams the events as Anthropic sent them, metered from message_start and message_delta', async () => {
    const stream = client.messages.stream({
      model: 'claude/direct',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: CLAUDE_TEXT }]);
    const row = await usageOf('claude/direct');
    expect([row.streamed, row.promptTokens, row.completionTokens, row.tokensEstimated]).toEqual([
      true,
      11,
      7,
      false,
    ]);
  });
});

describe('the Anthropic SDK through AIR to an OpenAI upstream', () => {
  it('translates the request to a chat completion and the answer back to a message', async () => {
    const message = await client.messages.create({
      model: 'openai/behind',
      max_tokens: 64,
      system: [{ type: 'text', text: 'Be brief.' }],
      stop_sequences: ['END'],
      tools: [WEATHER],
      tool_choice: { type: 'auto' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(message.content).toEqual([{ type: 'text', text: COMPLETION.choices[0]!.message.content }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 11, output_tokens: 7 });
    const seen = openaiMock.seen.at(-1)!;
    expect(JSON.parse(seen.body.toString())).toEqual({
      model: 'openai/behind',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      ],
      max_tokens: 64,
      stop: ['END'],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather in a city',
            parameters: WEATHER.input_schema,
          },
        },
      ],
      tool_choice: 'auto',
    });
    expect(seen.headers.authorization).toBe('Bearer sk-openai-upstream');
    const row = await usageOf('openai/behind');
    expect([row.promptTokens, row.completionTokens]).toEqual([11, 7]);
    expect([row.clientFormat, row.upstreamFormat]).toEqual(['anthropic', 'openai']);
  });

  it('streams chat chunks back as Anthropic events', async () => {
    const types: string[] = [];
    const stream = client.messages.stream({
      model: 'openai/behind',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: 'Hello world' }]);
    expect(message.usage.output_tokens).toBe(STREAM_USAGE.completion_tokens);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(JSON.parse(openaiMock.seen.at(-1)!.body.toString()).stream_options).toEqual({
      include_usage: true,
    });
    const row = await usageOf('openai/behind');
    expect([row.streamed, row.promptTokens, row.completionTokens]).toEqual([
      true,
      STREAM_USAGE.prompt_tokens,
      STREAM_USAGE.completion_tokens,
    ]);
  });

  it("refuses what chat completions cannot carry, in Anthropic's error shape", async () => {
    const error = await client.messages
      .create({
        model: 'openai/behind',
        max_tokens: 10,
        speed: 'fast',
        messages: [{ role: 'user', content: 'Hi' }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    const body = (error as InstanceType<typeof Anthropic.APIError>).error as { error: { message: string } };
    expect(body.error.message).toContain('"speed" is not translated');
  });
});

describe('anthropic-version and anthropic-beta (decision 061)', () => {
  const post = (model: string, headers: Record<string, string>, path = '/api/v1/messages') =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
      body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }),
    });
  const lastSeen = () => anthropicMock.seen.at(-1)!.headers;

  it("sends an Anthropic client's own version and betas to an Anthropic upstream, in place of the endpoint's", async () => {
    const beta = {
      'anthropic-version': '2026-10-21',
      'anthropic-beta': 'files-api-2025-04-14,context-1m-2025-08-07',
    };
    for (const route of ['claude/direct', 'claude/pinned']) {
      const answer = await post(route, beta);
      expect(answer.status).toBe(200);
      expect([lastSeen()['anthropic-version'], lastSeen()['anthropic-beta']]).toEqual([
        '2026-10-21',
        'files-api-2025-04-14,context-1m-2025-08-07',
      ]);
      // Not echoed: the answer's headers are the upstream's, and Anthropic sends no version back.
      expect(answer.headers.get('anthropic-version')).toBeNull();
    }
    // The SDK's own default version goes through as it sent it.
    await client.messages.create({
      model: 'claude/pinned',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(lastSeen()['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(lastSeen()['anthropic-version']).not.toBe('2023-01-01');
  });

  it("is not required: without one the endpoint's version goes, else 2023-06-01; OpenAI clients never set it", async () => {
    expect((await post('claude/direct', {})).status).toBe(200);
    expect([lastSeen()['anthropic-version'], lastSeen()['anthropic-beta']]).toEqual([
      '2023-06-01',
      undefined,
    ]);
    expect((await post('claude/pinned', {})).status).toBe(200);
    expect(lastSeen()['anthropic-version']).toBe('2023-01-01');
    // An OpenAI client's call translated to Anthropic: the endpoint's version, whatever headers came.
    const chat = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'anthropic-version': '2026-10-21',
      },
      body: JSON.stringify({ model: 'claude/pinned', messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(chat.status).toBe(200);
    expect(lastSeen()['anthropic-version']).toBe('2023-01-01');
  });

  it('sends neither header to an OpenAI upstream (they mean nothing there)', async () => {
    const answer = await post('openai/behind', {
      'anthropic-version': '2026-10-21',
      'anthropic-beta': 'x-2025-01-01',
    });
    expect(answer.status).toBe(200);
    const seen = openaiMock.seen.at(-1)!.headers;
    expect([seen['anthropic-version'], seen['anthropic-beta']]).toEqual([undefined, undefined]);
  });
});

describe('the Anthropic SDK through AIR to an OpenAI upstream, with tools', () => {
  it('makes a full tool round trip: tool_use in the answer, plain and streamed, and the tool_result sent back', async () => {
    const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await client.messages.create({
      model: 'openai/tools',
      max_tokens: 64,
      tools: [WEATHER],
      messages: [ask],
    });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'tool_use', id: 'call_mock1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(first.usage).toMatchObject({ input_tokens: 11, output_tokens: 7 });
    // The upstream got OpenAI's tools, as the Anthropic tool was declared.
    const asked = toolsMock.seen.at(-1)!.body;
    expect(asked).toMatchObject({
      model: 'gpt-4o',
      max_tokens: 64,
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: WEATHER.description,
            parameters: WEATHER.input_schema,
          },
        },
      ],
    });

    // Streamed: the SDK assembles the tool_use block from input_json_delta events.
    const stream = client.messages.stream({
      model: 'openai/tools',
      max_tokens: 64,
      tools: [WEATHER],
      messages: [ask],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const live = await stream.finalMessage();
    expect(live.stop_reason).toBe('tool_use');
    expect(live.content).toEqual([
      { type: 'tool_use', id: 'call_mock1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(types[0]).toBe('message_start');
    expect(types).toContain('content_block_start');
    expect(types).toContain('content_block_delta');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(live.usage.output_tokens).toBe(7);
    let row = await nthUsageOf('openai/tools', 2);
    expect([row.streamed, row.promptTokens, row.completionTokens]).toEqual([true, 11, 7]);
    expect([row.clientFormat, row.upstreamFormat]).toEqual(['anthropic', 'openai']);

    // The tool's result goes back as a tool_result block: the upstream gets a tool message.
    const back: Anthropic.MessageParam[] = [
      ask,
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_mock1', content: '{"celsius":18}' }],
      },
    ];
    const answer = await client.messages.create({
      model: 'openai/tools',
      max_tokens: 64,
      tools: [WEATHER],
      messages: back,
    });
    expect(answer.stop_reason).toBe('end_turn');
    expect(answer.content).toEqual([{ type: 'text', text: 'Result: {"celsius":18}' }]);
    const sent = toolsMock.seen.at(-1)!.body.messages as Record<string, unknown>[];
    expect(sent.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_mock1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_mock1', content: '{"celsius":18}' },
    ]);
    // And streamed, the final text assembled from text deltas.
    const streamedAnswer = await client.messages
      .stream({ model: 'openai/tools', max_tokens: 64, tools: [WEATHER], messages: back })
      .finalMessage();
    expect(streamedAnswer.content).toEqual([{ type: 'text', text: 'Result: {"celsius":18}' }]);
    row = await nthUsageOf('openai/tools', 4);
    expect([row.status, row.streamed, row.completionTokens]).toEqual([200, true, 7]);
  });
});

describe('the Anthropic SDK through AIR to a Gemini upstream', () => {
  it('makes a full tool round trip, plain and streamed, through both translations', async () => {
    const first = await client.messages.create({
      model: 'gemini/behind',
      max_tokens: 64,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block) => block.type === 'tool_use');
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });

    const live = await client.messages
      .stream({
        model: 'gemini/behind',
        max_tokens: 64,
        tools: [WEATHER],
        messages: [{ role: 'user', content: 'Weather?' }],
      })
      .finalMessage();
    expect(live.stop_reason).toBe('tool_use');
    expect(live.content).toMatchObject([{ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } }]);

    const answer = await client.messages.create({
      model: 'gemini/behind',
      max_tokens: 64,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: (use as { id: string }).id, content: '{"celsius":18}' },
          ],
        },
      ],
    });
    expect(answer.content).toMatchObject([{ type: 'text', text: 'Result: {"celsius":18}' }]);
    const row = await usageOf('gemini/behind');
    expect([row.promptTokens, row.completionTokens]).toEqual([11, 7]);
    expect([row.clientFormat, row.upstreamFormat]).toEqual(['anthropic', 'gemini']);
  });
});

describe("the AI SDK's Anthropic provider pointed at AIR", () => {
  it('generates through to an Anthropic upstream and streams from an OpenAI one', async () => {
    const provider = createAnthropic({ apiKey: key, baseURL: `${base}/api/v1` });
    const generated = await generateText({ model: provider('claude/direct'), prompt: 'Hi' });
    expect(generated.text).toBe(CLAUDE_TEXT);
    expect(generated.usage.outputTokens).toBe(7);
    const streamed = streamText({ model: provider('openai/behind'), prompt: 'Hi' });
    expect(await streamed.text).toBe('Hello world');
    expect(await streamed.finishReason).toBe('stop');
    const row = await usageOf('openai/behind');
    expect([row.streamed, row.completionTokens]).toEqual([true, STREAM_USAGE.completion_tokens]);
  });
});

describe("the gateway's own answers to Anthropic clients", () => {
  it("refuses an unknown route and a bad key in Anthropic's error shape", async () => {
    const missing = await client.messages
      .create({ model: 'nobody/here', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect((missing as InstanceType<typeof Anthropic.APIError>).error).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'Route not found.' },
    });
    const wrong = new Anthropic({ apiKey: 'air_wrong', baseURL: `${base}/api`, maxRetries: 0 });
    const refused = await wrong.messages
      .create({ model: 'claude/direct', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('counts tokens with the tokenizer, without calling the upstream', async () => {
    const seen = anthropicMock.seen.length;
    const counted = await client.messages.countTokens({
      model: 'claude/direct',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'How many tokens is this?' }],
    });
    expect(counted.input_tokens).toBe(await countTokens('Be brief.\nHow many tokens is this?'));
    expect(anthropicMock.seen.length).toBe(seen);
    const missing = await client.messages
      .countTokens({ model: 'nobody/here', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
  });
});
