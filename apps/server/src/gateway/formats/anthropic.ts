/**
 * OpenAI chat completions to Anthropic's Messages API and back (contract 6c, decision 054): the
 * request body, the JSON answer, the event stream (message_start, content_block_*, message_delta,
 * message_stop, ping, error) and error bodies.
 */

import {
  DONE,
  EventReader,
  IGNORED_FIELDS,
  chunkEvent,
  chunkPrefix,
  count,
  dataUrl,
  fail,
  functionsOf,
  isNoOp,
  maxTokens,
  numberOr,
  objectOf,
  openAiError,
  parseJson,
  unreadable,
  responseFormatOf,
  stopSequences,
  textOf,
  toolArguments,
  toolChoiceOf,
  usageJson,
  type TChatUsage,
  type TJson,
} from './chat-shape';
import type { TAnswerTranslator } from './types';

/** The version header sent when the endpoint's headers set none. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The output bound when the caller set none: Anthropic requires one (every current model allows it). */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** The tool a JSON `response_format` becomes: its input is the answer's content. */
export const JSON_TOOL = 'air_json_response';

const READ_FIELDS = new Set([
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'stop',
  'stream',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'n',
]);

type TBlock = TJson;
interface TMessage {
  role: 'user' | 'assistant';
  content: TBlock[];
}

function imageBlock(part: TJson): TBlock {
  const url = objectOf(part.image_url)?.url;
  if (typeof url !== 'string') return fail('An "image_url" part needs "image_url.url".');
  const inline = dataUrl(url);
  if (inline)
    return { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  return { type: 'image', source: { type: 'url', url } };
}

function userBlocks(content: unknown): TBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content))
    return fail('A user message\'s "content" must be a string or an array of parts.');
  return content.map((part) => {
    const object = objectOf(part);
    if (object?.type === 'text' && typeof object.text === 'string')
      return { type: 'text', text: object.text };
    if (object?.type === 'image_url') return imageBlock(object);
    return fail(`A "${String(object?.type)}" content part is not translated to Anthropic's Messages API.`);
  });
}

function assistantBlocks(message: TJson): TBlock[] {
  const blocks: TBlock[] = [];
  const text = textOf(message.content, 'assistant');
  if (text !== '') blocks.push({ type: 'text', text });
  const calls = message.tool_calls;
  if (Array.isArray(calls)) {
    for (const call of calls) {
      const object = objectOf(call);
      const fn = objectOf(object?.function);
      if (!object || typeof object.id !== 'string' || !fn || typeof fn.name !== 'string')
        return fail('Each of an assistant message\'s "tool_calls" needs "id" and "function.name".');
      blocks.push({ type: 'tool_use', id: object.id, name: fn.name, input: toolArguments(fn.arguments) });
    }
  }
  return blocks;
}

function toolResult(message: TJson): TBlock {
  if (typeof message.tool_call_id !== 'string') return fail('A tool message needs "tool_call_id".');
  return { type: 'tool_result', tool_use_id: message.tool_call_id, content: textOf(message.content, 'tool') };
}

/** Consecutive messages of one role become one (Anthropic alternates roles; tool results are the user's). */
function push(messages: TMessage[], role: TMessage['role'], blocks: TBlock[]): void {
  const last = messages[messages.length - 1];
  if (last && last.role === role) last.content.push(...blocks);
  else messages.push({ role, content: blocks });
}

/** The Messages API body for an OpenAI chat request, or Untranslatable (chat-shape.ts). */
export function anthropicRequest(body: TJson, stream: boolean): TJson {
  for (const name of Object.keys(body)) {
    if (READ_FIELDS.has(name) || IGNORED_FIELDS.has(name) || isNoOp(body[name])) continue;
    return fail(
      `"${name}" is not translated to Anthropic's Messages API (this route's upstream format is anthropic).`,
    );
  }
  if (body.n !== undefined && body.n !== null && body.n !== 1)
    return fail('"n" other than 1 is not translated to Anthropic\'s Messages API: it answers one choice.');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return fail('"messages" must be a non-empty array.');
  const system: TBlock[] = [];
  const messages: TMessage[] = [];
  for (const entry of body.messages) {
    const message = objectOf(entry);
    const role = message?.role;
    if (!message) return fail('Each of "messages" must be an object.');
    if (role === 'system' || role === 'developer') {
      system.push({ type: 'text', text: textOf(message.content, role) });
    } else if (role === 'user') push(messages, 'user', userBlocks(message.content));
    else if (role === 'assistant') push(messages, 'assistant', assistantBlocks(message));
    else if (role === 'tool') push(messages, 'user', [toolResult(message)]);
    else return fail(`A "${String(role)}" message is not translated to Anthropic's Messages API.`);
  }
  const out: TJson = {
    model: body.model,
    max_tokens: maxTokens(body) ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages,
  };
  if (system.length > 0) out.system = system;
  const temperature = numberOr(body.temperature, 'temperature');
  if (temperature !== undefined) out.temperature = temperature;
  const topP = numberOr(body.top_p, 'top_p');
  if (topP !== undefined) out.top_p = topP;
  const stop = stopSequences(body.stop);
  if (stop) out.stop_sequences = stop;
  if (stream) out.stream = true;
  if (typeof body.user === 'string') out.metadata = { user_id: body.user };
  const tools = functionsOf(body.tools);
  const format = responseFormatOf(body.response_format);
  if (format && tools.length > 0)
    return fail('"response_format" with "tools" is not translated to Anthropic\'s Messages API.');
  if (format) {
    const schema = format.schema ?? { type: 'object' };
    if (schema.type !== 'object')
      return fail('A "json_schema" response format translated to Anthropic must describe an object.');
    out.tools = [
      { name: JSON_TOOL, description: `Answer with the ${format.name} JSON.`, input_schema: schema },
    ];
    out.tool_choice = { type: 'tool', name: JSON_TOOL };
    return out;
  }
  if (tools.length > 0) {
    out.tools = tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      input_schema: tool.parameters ?? { type: 'object', properties: {} },
    }));
  }
  const choice = toolChoiceOf(body.tool_choice);
  const parallel = body.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice && 'name' in choice) out.tool_choice = { type: 'tool', name: choice.name, ...parallel };
  else if (choice?.mode === 'required') out.tool_choice = { type: 'any', ...parallel };
  else if (choice?.mode === 'none') out.tool_choice = { type: 'none' };
  else if (choice || body.parallel_tool_calls === false) {
    if (tools.length > 0) out.tool_choice = { type: 'auto', ...parallel };
  }
  return out;
}

/** Anthropic's stop reasons as OpenAI's finish reasons. */
export function finishReason(stop: unknown): string | null {
  switch (stop) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return stop === null || stop === undefined ? null : 'stop';
  }
}

function usageOf(usage: TJson | null, into: TChatUsage): void {
  if (!usage) return;
  // Each event carries the counts so far: a later figure replaces an earlier one.
  if (usage.input_tokens !== undefined && usage.input_tokens !== null)
    into.prompt = count(usage.input_tokens);
  if (usage.cache_read_input_tokens !== undefined && usage.cache_read_input_tokens !== null)
    into.cacheRead = count(usage.cache_read_input_tokens);
  if (usage.cache_creation_input_tokens !== undefined && usage.cache_creation_input_tokens !== null)
    into.cacheCreation = count(usage.cache_creation_input_tokens);
  if (usage.output_tokens !== undefined && usage.output_tokens !== null)
    into.completion = count(usage.output_tokens);
}

/** OpenAI's prompt tokens count the cached ones too: Anthropic's input tokens do not. */
function chatUsage(usage: TChatUsage): TJson {
  return usageJson({ ...usage, prompt: usage.prompt + usage.cacheRead + usage.cacheCreation });
}

function newUsage(): TChatUsage {
  return { prompt: 0, completion: 0, cacheRead: 0, cacheCreation: 0, reasoning: 0 };
}

/** A Messages answer as a chat completion (usage last: the meter reads it from the tail). */
export function anthropicAnswer(message: TJson): TJson {
  let text: string | null = null;
  const calls: TJson[] = [];
  let jsonAnswer = false;
  for (const block of Array.isArray(message.content) ? message.content : []) {
    const object = objectOf(block);
    if (object?.type === 'text' && typeof object.text === 'string') text = (text ?? '') + object.text;
    else if (object?.type === 'tool_use' && object.name === JSON_TOOL) {
      text = (text ?? '') + JSON.stringify(object.input ?? {});
      jsonAnswer = true;
    } else if (object?.type === 'tool_use')
      calls.push({
        id: object.id,
        type: 'function',
        function: { name: object.name, arguments: JSON.stringify(object.input ?? {}) },
      });
  }
  const usage = newUsage();
  usageOf(objectOf(message.usage), usage);
  const reply: TJson = { role: 'assistant', content: text, refusal: null };
  if (calls.length > 0) reply.tool_calls = calls;
  const finish = jsonAnswer ? 'stop' : finishReason(message.stop_reason);
  return {
    id: message.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: message.model,
    choices: [{ index: 0, message: reply, logprobs: null, finish_reason: finish }],
    usage: chatUsage(usage),
  };
}

/** An Anthropic error body (`{ type: "error", error: { type, message } }`) in OpenAI's shape. */
export function anthropicError(status: number, body: Buffer): Buffer {
  const error = objectOf(parseJson(body)?.error);
  if (error && typeof error.message === 'string')
    return openAiError(error.message, typeof error.type === 'string' ? error.type : 'api_error', null);
  return openAiError(`The upstream (anthropic) answered ${status} without a readable error.`, 'api_error');
}

/**
 * An Anthropic event stream read as it comes, written as chat completion chunks: text deltas as
 * content, tool_use blocks as tool-call deltas (their input JSON as argument deltas), the stop
 * reason as the finish reason, and the usage (with cache tokens) in a last chunk before `[DONE]`.
 */
export class AnthropicStream {
  private readonly reader = new EventReader();
  private prefix = chunkPrefix('chatcmpl-air', '');
  private readonly usage = newUsage();
  /** Content block index to tool call index (-1: the JSON response tool, streamed as content). */
  private readonly tools = new Map<number, number>();
  private jsonAnswer = false;
  private out = '';
  private stopped = false;

  push(chunk: Buffer): Buffer {
    this.reader.push(chunk, this.onData);
    return this.take();
  }

  end(): Buffer {
    this.reader.end(this.onData);
    return this.take();
  }

  private take(): Buffer {
    if (this.out === '') return EMPTY;
    const bytes = Buffer.from(this.out);
    this.out = '';
    return bytes;
  }

  private delta(delta: string, finish: string | null = null): void {
    this.out += chunkEvent(
      this.prefix,
      `[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}]`,
    );
  }

  private readonly onData = (data: string): void => {
    let event: TJson | null;
    try {
      event = objectOf(JSON.parse(data));
    } catch {
      return;
    }
    if (!event) return;
    switch (event.type) {
      case 'message_start': {
        const message = objectOf(event.message) ?? {};
        this.prefix = chunkPrefix(String(message.id ?? 'chatcmpl-air'), String(message.model ?? ''));
        usageOf(objectOf(message.usage), this.usage);
        this.delta('{"role":"assistant","content":""}');
        return;
      }
      case 'content_block_start': {
        const block = objectOf(event.content_block);
        const index = count(event.index);
        if (block?.type === 'tool_use' && block.name === JSON_TOOL) {
          this.tools.set(index, -1);
          this.jsonAnswer = true;
        } else if (block?.type === 'tool_use') {
          const call = this.tools.size - (this.jsonAnswer ? 1 : 0);
          this.tools.set(index, call);
          const head = {
            index: call,
            id: block.id,
            type: 'function',
            function: { name: block.name, arguments: '' },
          };
          this.delta(`{"tool_calls":[${JSON.stringify(head)}]}`);
        } else if (block?.type === 'text' && typeof block.text === 'string' && block.text !== '')
          this.delta(`{"content":${JSON.stringify(block.text)}}`);
        return;
      }
      case 'content_block_delta': {
        const delta = objectOf(event.delta);
        if (delta?.type === 'text_delta' && typeof delta.text === 'string')
          this.delta(`{"content":${JSON.stringify(delta.text)}}`);
        else if (delta?.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          const call = this.tools.get(count(event.index));
          if (call === undefined || delta.partial_json === '') return;
          const json = JSON.stringify(delta.partial_json);
          if (call < 0) this.delta(`{"content":${json}}`);
          else this.delta(`{"tool_calls":[{"index":${call},"function":{"arguments":${json}}}]}`);
        }
        return;
      }
      case 'message_delta': {
        usageOf(objectOf(event.usage), this.usage);
        const stop = objectOf(event.delta)?.stop_reason;
        const finish = this.jsonAnswer ? 'stop' : finishReason(stop);
        if (finish !== null) this.delta('{}', finish);
        return;
      }
      case 'message_stop':
        if (this.stopped) return;
        this.stopped = true;
        this.out += chunkEvent(this.prefix, '[]', chatUsage(this.usage)) + DONE;
        return;
      case 'error': {
        const error = objectOf(event.error);
        const message = typeof error?.message === 'string' ? error.message : 'The upstream stream failed.';
        const type = typeof error?.type === 'string' ? error.type : 'api_error';
        this.out += `data: ${JSON.stringify({ error: { message, type, param: null, code: null } })}\n\n`;
        return;
      }
      default:
        // ping and content_block_stop carry nothing a chat chunk has.
        return;
    }
  };
}

const EMPTY = Buffer.alloc(0);

export function anthropicTranslator(): TAnswerTranslator {
  let stream: AnthropicStream | null = null;
  return {
    stream(chunk) {
      stream ??= new AnthropicStream();
      return stream.push(chunk);
    },
    streamEnd() {
      return stream ? stream.end() : EMPTY;
    },
    whole(status, body) {
      if (status >= 300) return { status, body: anthropicError(status, body) };
      const message = parseJson(body);
      if (!message) return { status: 502, body: unreadable('anthropic') };
      return { status, body: Buffer.from(JSON.stringify(anthropicAnswer(message))) };
    },
  };
}
