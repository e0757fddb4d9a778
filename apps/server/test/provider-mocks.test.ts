import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANTHROPIC_KEY,
  ANTHROPIC_USAGE,
  CLAUDE_TEXT,
  GEMINI_KEY,
  GEMINI_TEXT,
  GEMINI_USAGE,
  OPENAI_KEY,
  OPENAI_USAGE,
  startAnthropicMock,
  startGeminiMock,
  startOpenAiMock,
  type TProviderMock,
} from './provider-mocks';

// The provider mocks the gateway's format tests use, checked against the providers' official SDKs
// pointed straight at them: what the SDKs accept of the mocks is what they accept of the APIs.

let anthropicMock: TProviderMock;
let geminiMock: TProviderMock;
let openaiMock: TProviderMock;
let openai: OpenAI;
let anthropic: Anthropic;
let gemini: GoogleGenAI;

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

beforeAll(async () => {
  anthropicMock = await startAnthropicMock();
  geminiMock = await startGeminiMock();
  openaiMock = await startOpenAiMock();
  openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${openaiMock.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: anthropicMock.url, maxRetries: 0 });
  gemini = new GoogleGenAI({
    apiKey: GEMINI_KEY,
    httpOptions: { baseUrl: geminiMock.url, apiVersion: 'v1beta' },
  });
});

afterAll(async () => {
  await anthropicMock?.close();
  await geminiMock?.close();
  await openaiMock?.close();
});

describe('the Anthropic mock, through @anthropic-ai/sdk', () => {
  it('answers a message with its usage, and sends the SDK headers it checks', async () => {
    const message = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: CLAUDE_TEXT }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject(ANTHROPIC_USAGE);
    const seen = anthropicMock.seen.at(-1)!;
    expect(seen.headers.authorization).toBe(`Bearer ${ANTHROPIC_KEY}`);
    expect(seen.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('streams the event sequence the SDK assembles into the same message', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: CLAUDE_TEXT }]);
    expect(message.usage.output_tokens).toBe(ANTHROPIC_USAGE.output_tokens);
    expect(types[0]).toBe('message_start');
    expect(types).toContain('content_block_delta');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
  });

  it('calls a tool, streamed, its input assembled from the JSON deltas', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      tools: [WEATHER_TOOL],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[1]).toMatchObject({
      type: 'tool_use',
      name: 'get_weather',
      input: { city: 'Paris' },
    });
  });

  it('answers errors the SDK raises with their type and message', async () => {
    const wrong = new Anthropic({ apiKey: 'sk-wrong', baseURL: anthropicMock.url, maxRetries: 0 });
    const error = await wrong.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as InstanceType<typeof Anthropic.APIError>).message).toContain('invalid x-api-key');
    const overloaded = new Anthropic({
      apiKey: ANTHROPIC_KEY,
      baseURL: `${anthropicMock.url}/overloaded`,
      maxRetries: 0,
    });
    const busy = await overloaded.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect((busy as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
  });
});

describe('the Gemini mock, through @google/genai', () => {
  it('answers generateContent with its usage', async () => {
    const answer = await gemini.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' });
    expect(answer.text).toBe(GEMINI_TEXT);
    expect(answer.usageMetadata).toMatchObject(GEMINI_USAGE);
    const seen = geminiMock.seen.at(-1)!;
    expect(seen.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(seen.headers['x-goog-api-key']).toBe(GEMINI_KEY);
  });

  it('streams with alt=sse, the text in pieces', async () => {
    const stream = await gemini.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hi' });
    const pieces: string[] = [];
    let usage: unknown;
    for await (const chunk of stream) {
      pieces.push(chunk.text ?? '');
      usage = chunk.usageMetadata;
    }
    expect(pieces.length).toBe(2);
    expect(pieces.join('')).toBe(GEMINI_TEXT);
    expect(usage).toMatchObject(GEMINI_USAGE);
    expect(geminiMock.seen.at(-1)!.path).toBe(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
  });

  it('calls a function', async () => {
    const answer = await gemini.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Weather in Paris?',
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
              },
            ],
          },
        ],
      },
    });
    expect(answer.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
  });

  it('answers errors the SDK raises with the message', async () => {
    const wrong = new GoogleGenAI({ apiKey: 'wrong', httpOptions: { baseUrl: geminiMock.url } });
    const error = await wrong.models
      .generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' })
      .catch((caught: unknown) => caught);
    expect(String((error as Error).message)).toContain('API key not valid');
    expect((error as { status?: number }).status).toBe(400);
  });
});

describe('the OpenAI mock, through the openai package', () => {
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    {
      type: 'function',
      function: {
        name: WEATHER_TOOL.name,
        description: WEATHER_TOOL.description,
        parameters: WEATHER_TOOL.input_schema,
      },
    },
  ];

  it('calls a tool and answers its result, plain and streamed (the SDK assembling the deltas)', async () => {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Weather in Paris?' },
    ];
    const first = await openai.chat.completions.create({ model: 'gpt-4o', messages, tools });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toEqual({
      city: 'Paris',
    });
    expect(first.usage).toMatchObject(OPENAI_USAGE);

    const streamed = await openai.chat.completions
      .stream({ model: 'gpt-4o', messages, tools, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(streamed.choices[0]!.finish_reason).toBe('tool_calls');
    expect(streamed.choices[0]!.message.tool_calls).toMatchObject([
      {
        id: 'call_mock1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ]);
    expect(streamed.usage).toMatchObject(OPENAI_USAGE);

    const answer = await openai.chat.completions.create({
      model: 'gpt-4o',
      tools,
      messages: [
        ...messages,
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: '{"celsius":18}' },
      ],
    });
    expect(answer.choices[0]!.message.content).toBe('Result: {"celsius":18}');
  });

  it('answers errors the SDK raises with their status and message', async () => {
    const bad = new OpenAI({ apiKey: 'wrong', baseURL: `${openaiMock.url}/v1`, maxRetries: 0 });
    const error = await bad.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key');
  });
});
