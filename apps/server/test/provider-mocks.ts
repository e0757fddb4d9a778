import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Mocks of two providers' APIs, written from their published references: Anthropic's Messages API
 * (https://docs.anthropic.com/en/api/messages, its streaming and errors pages) and Gemini's
 * generateContent / streamGenerateContent (https://ai.google.dev/api/generate-content, with
 * `alt=sse`). provider-mocks.test.ts points the official SDKs (`@anthropic-ai/sdk`,
 * `@google/genai`) at them, so a mock that drifts from what the SDKs accept fails the suite.
 * Paths starting `/overloaded` answer the provider's overloaded error.
 */

export interface TProviderRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

type TJson = Record<string, unknown>;

export const ANTHROPIC_KEY = 'sk-ant-mock';
export const GEMINI_KEY = 'gemini-mock-key';

/** The Anthropic mock's usage: 6 + 3 + 2 prompt tokens (11 in OpenAI's count) and 7 output tokens. */
export const ANTHROPIC_USAGE = {
  input_tokens: 6,
  cache_creation_input_tokens: 2,
  cache_read_input_tokens: 3,
  output_tokens: 7,
};

/** The Gemini mock's usage: 11 prompt tokens, 5 + 2 (thoughts) output tokens. */
export const GEMINI_USAGE = {
  promptTokenCount: 11,
  candidatesTokenCount: 5,
  thoughtsTokenCount: 2,
  totalTokenCount: 18,
};

export const CLAUDE_TEXT = 'Hello from Claude';
export const GEMINI_TEXT = 'Hello from Gemini';

/** A value matching a JSON schema's properties, enough for tool inputs and JSON answers. */
export function sampleOf(schema: unknown): TJson {
  const properties = (schema as { properties?: Record<string, { type?: string }> } | null)?.properties ?? {};
  const out: TJson = {};
  for (const [name, property] of Object.entries(properties))
    out[name] =
      property.type === 'number' || property.type === 'integer'
        ? 42
        : property.type === 'boolean'
          ? true
          : 'Paris';
  return out;
}

async function listen(
  handler: (path: string, headers: IncomingHttpHeaders, body: TJson, res: ServerResponse) => void,
) {
  const seen: TProviderRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: TJson;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TJson;
      } catch {
        body = {};
      }
      const path = req.url ?? '';
      seen.push({ path, headers: req.headers, body });
      handler(path, req.headers, body, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

// ---------------------------------------------------------------------------------------------
// Anthropic

function anthropicError(res: ServerResponse, status: number, type: string, message: string) {
  json(
    res,
    status,
    { type: 'error', error: { type, message }, request_id: 'req_mock' },
    { 'request-id': 'req_mock' },
  );
}

/** What the mock answers: text, or a tool call (a tool offered and no tool result yet, or a forced tool). */
function claudeContent(body: TJson): { content: TJson[]; stop: string } {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages[messages.length - 1]!;
  const blocks = Array.isArray(last.content) ? (last.content as TJson[]) : [];
  const result = blocks.find((block) => block.type === 'tool_result');
  if (result)
    return { content: [{ type: 'text', text: `Result: ${String(result.content)}` }], stop: 'end_turn' };
  const tools = (body.tools as { name: string; input_schema: unknown }[] | undefined) ?? [];
  const choice = body.tool_choice as { type: string; name?: string } | undefined;
  const forced = choice?.type === 'tool' ? tools.find((tool) => tool.name === choice.name) : undefined;
  const tool = forced ?? (tools.length > 0 && choice?.type !== 'none' ? tools[0] : undefined);
  if (tool) {
    const use = { type: 'tool_use', id: 'toolu_mock1', name: tool.name, input: sampleOf(tool.input_schema) };
    return { content: forced ? [use] : [{ type: 'text', text: 'Let me check.' }, use], stop: 'tool_use' };
  }
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length > 0)
    return { content: [{ type: 'text', text: 'Hello' }], stop: 'stop_sequence' };
  return { content: [{ type: 'text', text: CLAUDE_TEXT }], stop: 'end_turn' };
}

function sse(res: ServerResponse, events: TJson[]) {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  // Each event in its own write, the way the API sends them as they are generated.
  for (const event of events) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

/** The Messages API stream for an answer: message_start, per block start/delta(s)/stop, ping, message_delta, message_stop. */
function claudeStream(res: ServerResponse, model: string, content: TJson[], stop: string) {
  const events: TJson[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...ANTHROPIC_USAGE, output_tokens: 1 },
      },
    },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      if (index === 0) events.push({ type: 'ping' });
      const text = String(block.text);
      const cut = Math.ceil(text.length / 2);
      for (const piece of [text.slice(0, cut), text.slice(cut)])
        events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    } else {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      const input = JSON.stringify(block.input);
      const cut = Math.ceil(input.length / 2);
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: '' },
      });
      for (const piece of [input.slice(0, cut), input.slice(cut)])
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: ANTHROPIC_USAGE.output_tokens },
  });
  events.push({ type: 'message_stop' });
  sse(res, events);
}

/** Anthropic's Messages API at `POST {base}/v1/messages` (any prefix), keyed by x-api-key. */
export function startAnthropicMock() {
  return listen((path, headers, body, res) => {
    if (!path.split('?')[0]!.endsWith('/v1/messages'))
      return anthropicError(res, 404, 'not_found_error', 'Not Found');
    // The key as `x-api-key` (the API's original form) or a bearer token (what the SDK sends since 1.0).
    if (headers['x-api-key'] !== ANTHROPIC_KEY && headers.authorization !== `Bearer ${ANTHROPIC_KEY}`)
      return anthropicError(res, 401, 'authentication_error', 'invalid x-api-key');
    if (typeof headers['anthropic-version'] !== 'string')
      return anthropicError(res, 400, 'invalid_request_error', 'anthropic-version: header is required');
    if (path.startsWith('/overloaded')) return anthropicError(res, 529, 'overloaded_error', 'Overloaded');
    if (typeof body.model !== 'string')
      return anthropicError(res, 400, 'invalid_request_error', 'model: Field required');
    if (typeof body.max_tokens !== 'number')
      return anthropicError(res, 400, 'invalid_request_error', 'max_tokens: Field required');
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return anthropicError(res, 400, 'invalid_request_error', 'messages: Field required');
    if (body.model === 'claude-missing')
      return anthropicError(res, 404, 'not_found_error', 'model: claude-missing');
    const { content, stop } = claudeContent(body);
    if (body.stream === true) return claudeStream(res, body.model, content, stop);
    json(
      res,
      200,
      {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content,
        stop_reason: stop,
        stop_sequence: stop === 'stop_sequence' ? (body.stop_sequences as string[])[0] : null,
        usage: ANTHROPIC_USAGE,
      },
      { 'request-id': 'req_mock' },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Gemini

function googleError(res: ServerResponse, code: number, status: string, message: string) {
  json(res, code, { error: { code, message, status } });
}

function geminiParts(body: TJson): TJson[] {
  const contents = body.contents as { role?: string; parts: TJson[] }[];
  const last = contents[contents.length - 1]!;
  const response = last.parts.find((part) => part.functionResponse);
  if (response) return [{ text: `Result: ${JSON.stringify((response.functionResponse as TJson).response)}` }];
  const mode = (body.toolConfig as { functionCallingConfig?: { mode?: string } } | undefined)
    ?.functionCallingConfig?.mode;
  const declarations =
    (
      body.tools as
        | {
            functionDeclarations?: { name: string; parametersJsonSchema?: unknown; parameters?: unknown }[];
          }[]
        | undefined
    )?.[0]?.functionDeclarations ?? [];
  if (declarations.length > 0 && mode !== 'NONE') {
    const declaration = declarations[0]!;
    return [
      {
        functionCall: {
          name: declaration.name,
          args: sampleOf(declaration.parametersJsonSchema ?? declaration.parameters),
        },
        thoughtSignature: 'c2lnbmF0dXJl',
      },
    ];
  }
  const config = (body.generationConfig ?? {}) as TJson;
  if (config.responseMimeType === 'application/json')
    return [{ text: JSON.stringify(sampleOf(config.responseJsonSchema ?? config.responseSchema)) }];
  return [{ text: GEMINI_TEXT }];
}

/**
 * Gemini's API at `POST {base}/v1beta/models` (or `/v1/models`/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse` (any prefix), keyed by x-goog-api-key.
 */
export function startGeminiMock() {
  return listen((path, headers, body, res) => {
    const match = /\/v1(?:beta)?\/models\/([^/:?]+):(generateContent|streamGenerateContent)(\?.*)?$/.exec(
      path,
    );
    if (!match) return googleError(res, 404, 'NOT_FOUND', 'Not found');
    if (headers['x-goog-api-key'] !== GEMINI_KEY)
      return googleError(res, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    if (path.startsWith('/overloaded'))
      return googleError(res, 503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
    if (!Array.isArray(body.contents) || body.contents.length === 0)
      return googleError(
        res,
        400,
        'INVALID_ARGUMENT',
        '* GenerateContentRequest.contents: contents is not specified',
      );
    const model = decodeURIComponent(match[1]!);
    const parts = geminiParts(body);
    const config = (body.generationConfig ?? {}) as TJson;
    const n = typeof config.candidateCount === 'number' ? config.candidateCount : 1;
    const calls = parts.some((part) => part.functionCall);
    const candidate = (index: number, partsOf: TJson[], finish: string | null) => ({
      content: { parts: partsOf, role: 'model' },
      ...(finish ? { finishReason: finish } : {}),
      index,
    });
    const answer = (candidates: TJson[], usage: TJson) => ({
      candidates,
      usageMetadata: usage,
      modelVersion: model,
      responseId: 'gemini-mock-response',
    });
    if (match[2] === 'generateContent')
      return json(
        res,
        200,
        answer(
          Array.from({ length: n }, (_, i) => candidate(i, parts, 'STOP')),
          GEMINI_USAGE,
        ),
      );
    if (!(match[3] ?? '').includes('alt=sse'))
      return googleError(res, 400, 'INVALID_ARGUMENT', 'This mock streams with alt=sse only.');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // Google ends each event with CRLF CRLF; text comes in pieces, a function call whole.
    const first = calls ? parts : [{ text: GEMINI_TEXT.slice(0, 6) }];
    const rest = calls ? [] : [{ text: String(parts[0]!.text).slice(6) }];
    const partial = {
      promptTokenCount: GEMINI_USAGE.promptTokenCount,
      totalTokenCount: GEMINI_USAGE.promptTokenCount,
    };
    if (calls) {
      res.write(`data: ${JSON.stringify(answer([candidate(0, first, 'STOP')], GEMINI_USAGE))}\r\n\r\n`);
    } else {
      if (String(parts[0]!.text).startsWith(GEMINI_TEXT.slice(0, 6))) {
        res.write(`data: ${JSON.stringify(answer([candidate(0, first, null)], partial))}\r\n\r\n`);
        res.write(`data: ${JSON.stringify(answer([candidate(0, rest, 'STOP')], GEMINI_USAGE))}\r\n\r\n`);
      } else
        res.write(`data: ${JSON.stringify(answer([candidate(0, parts, 'STOP')], GEMINI_USAGE))}\r\n\r\n`);
    }
    res.end();
  });
}

export type TProviderMock = Awaited<ReturnType<typeof startAnthropicMock>>;

// ---------------------------------------------------------------------------------------------
// OpenAI

export const OPENAI_KEY = 'sk-openai-mock';
/** The OpenAI mock's usage: the same 11 prompt and 7 completion tokens as the other mocks. */
export const OPENAI_USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

function openaiError(res: ServerResponse, status: number, type: string, code: string, message: string) {
  json(res, status, { error: { message, type, param: null, code } });
}

/**
 * What the OpenAI mock answers: a tool call when tools are offered and the last message is not a
 * tool result (`tool_choice` none: text), else text (`Result: {the tool's content}` after one).
 */
function chatAnswer(body: TJson): { content: string | null; calls: TJson[]; finish: string } {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages[messages.length - 1]!;
  if (last.role === 'tool') return { content: `Result: ${String(last.content)}`, calls: [], finish: 'stop' };
  type TTool = { type: string; function: { name: string; parameters?: unknown } };
  const tools = (body.tools as TTool[] | undefined) ?? [];
  const choice = body.tool_choice as { type: string; function?: { name: string } } | string | undefined;
  const forced =
    typeof choice === 'object' ? tools.find((t) => t.function.name === choice.function?.name) : undefined;
  const tool = forced ?? (tools.length > 0 && choice !== 'none' ? tools[0] : undefined);
  if (!tool) return { content: 'Hello from OpenAI', calls: [], finish: 'stop' };
  const call = {
    id: 'call_mock1',
    type: 'function',
    function: { name: tool.function.name, arguments: JSON.stringify(sampleOf(tool.function.parameters)) },
  };
  return { content: null, calls: [call], finish: 'tool_calls' };
}

/**
 * The chat completions stream (https://platform.openai.com/docs/api-reference/chat-streaming):
 * a role chunk, content deltas or a tool call's first delta (index, id, type, name, empty
 * arguments) and argument pieces, a finish chunk with an empty delta, the usage chunk (empty
 * `choices`) when `stream_options.include_usage` asks, then `data: [DONE]`.
 */
function chatStream(res: ServerResponse, body: TJson, answer: ReturnType<typeof chatAnswer>) {
  const head = {
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: body.model,
  };
  const chunk = (delta: TJson, finish: string | null = null) => ({
    ...head,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: TJson[] = [chunk({ role: 'assistant', content: answer.content === null ? null : '' })];
  if (answer.content !== null) {
    const cut = Math.ceil(answer.content.length / 2);
    for (const piece of [answer.content.slice(0, cut), answer.content.slice(cut)])
      chunks.push(chunk({ content: piece }));
  }
  answer.calls.forEach((call, index) => {
    const fn = call.function as { name: string; arguments: string };
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: fn.name, arguments: '' } }],
      }),
    );
    const cut = Math.ceil(fn.arguments.length / 2);
    for (const piece of [fn.arguments.slice(0, cut), fn.arguments.slice(cut)])
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, answer.finish));
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage === true) chunks.push({ ...head, choices: [], usage: OPENAI_USAGE });
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const event of chunks) res.write(`data: ${JSON.stringify(event)}\n\n`);
  res.end('data: [DONE]\n\n');
}

/** OpenAI's chat completions at `POST {base}/chat/completions` (any prefix), keyed by a bearer token. */
export function startOpenAiMock() {
  return listen((path, headers, body, res) => {
    if (!path.split('?')[0]!.endsWith('/chat/completions'))
      return openaiError(
        res,
        404,
        'invalid_request_error',
        'unknown_url',
        `Unknown request URL: POST ${path}`,
      );
    if (headers.authorization !== `Bearer ${OPENAI_KEY}`)
      return openaiError(res, 401, 'invalid_request_error', 'invalid_api_key', 'Incorrect API key provided');
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return openaiError(
        res,
        400,
        'invalid_request_error',
        'missing_required_parameter',
        "Missing required parameter: 'messages'.",
      );
    const answer = chatAnswer(body);
    if (body.stream === true) return chatStream(res, body, answer);
    json(res, 200, {
      id: 'chatcmpl-mock',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: answer.content,
            refusal: null,
            ...(answer.calls.length > 0 ? { tool_calls: answer.calls } : {}),
          },
          logprobs: null,
          finish_reason: answer.finish,
        },
      ],
      usage: OPENAI_USAGE,
    });
  });
}
