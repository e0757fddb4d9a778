/**
 * Anthropic clients in (contract 6c, decision 054): a Messages API request turned into an OpenAI
 * chat request for an upstream of another format, and the chat answer (JSON, chunks, errors) back
 * into Anthropic's message, event stream and error shape.
 */

import { EventReader, count, fail, objectOf, parseJson, type TJson } from './chat-shape';
import type { TAnswerTranslator } from './types';

const READ_FIELDS = new Set([
  'model',
  'messages',
  'system',
  'max_tokens',
  'temperature',
  'top_p',
  'stop_sequences',
  'stream',
  'tools',
  'tool_choice',
  'metadata',
  'service_tier',
]);

function textOfBlocks(content: unknown, where: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return fail(`${where} must be a string or an array of text blocks.`);
  return content
    .map((block) => {
      const object = objectOf(block);
      if (object?.type !== 'text' || typeof object.text !== 'string')
        return fail(`${where} may only hold text blocks here.`);
      return object.text;
    })
    .join('\n');
}

function imagePart(block: TJson): TJson {
  const source = objectOf(block.source);
  if (source?.type === 'base64' && typeof source.data === 'string' && typeof source.media_type === 'string')
    return { type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } };
  if (source?.type === 'url' && typeof source.url === 'string')
    return { type: 'image_url', image_url: { url: source.url } };
  return fail('An image block needs a base64 or url source.');
}

/** The chat request for a Messages API request, or Untranslatable (chat-shape.ts). */
export function chatFromAnthropic(body: TJson, stream: boolean): TJson {
  for (const name of Object.keys(body)) {
    if (READ_FIELDS.has(name) || body[name] === undefined || body[name] === null) continue;
    return fail(
      `"${name}" is not translated to this route's upstream format (it speaks OpenAI's chat completions).`,
    );
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) return fail('messages: Field required');
  const messages: TJson[] = [];
  if (body.system !== undefined && body.system !== null)
    messages.push({ role: 'system', content: textOfBlocks(body.system, 'system') });
  for (const entry of body.messages) {
    const message = objectOf(entry);
    if (!message || (message.role !== 'user' && message.role !== 'assistant'))
      return fail('Each message needs the role "user" or "assistant".');
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : Array.isArray(message.content)
          ? (message.content as unknown[])
          : fail('A message\'s "content" must be a string or an array of blocks.');
    if (message.role === 'assistant') {
      let text = '';
      const calls: TJson[] = [];
      for (const block of blocks) {
        const object = objectOf(block);
        if (object?.type === 'text' && typeof object.text === 'string') text += object.text;
        else if (object?.type === 'tool_use')
          calls.push({
            id: object.id,
            type: 'function',
            function: { name: object.name, arguments: JSON.stringify(object.input ?? {}) },
          });
        else if (object?.type === 'thinking' || object?.type === 'redacted_thinking') continue;
        else return fail(`A "${String(object?.type)}" block is not translated to OpenAI's chat completions.`);
      }
      messages.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      continue;
    }
    const parts: TJson[] = [];
    for (const block of blocks) {
      const object = objectOf(block);
      if (object?.type === 'text' && typeof object.text === 'string')
        parts.push({ type: 'text', text: object.text });
      else if (object?.type === 'image') parts.push(imagePart(object));
      else if (object?.type === 'tool_result') {
        const content =
          object.content === undefined ? '' : textOfBlocks(object.content, "A tool_result's content");
        messages.push({ role: 'tool', tool_call_id: object.tool_use_id, content });
      } else return fail(`A "${String(object?.type)}" block is not translated to OpenAI's chat completions.`);
    }
    if (parts.length > 0) messages.push({ role: 'user', content: parts });
  }
  const out: TJson = { model: body.model, messages };
  if (typeof body.max_tokens === 'number') out.max_tokens = body.max_tokens;
  if (typeof body.temperature === 'number') out.temperature = body.temperature;
  if (typeof body.top_p === 'number') out.top_p = body.top_p;
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length > 0) out.stop = body.stop_sequences;
  const user = objectOf(body.metadata)?.user_id;
  if (typeof user === 'string') out.user = user;
  if (stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (Array.isArray(body.tools) && body.tools.length > 0)
    out.tools = body.tools.map((tool) => {
      const object = objectOf(tool);
      if (
        !object ||
        typeof object.name !== 'string' ||
        (object.type !== undefined && object.type !== 'custom')
      )
        return fail(
          "Only custom tools ({ name, input_schema }) are translated to OpenAI's chat completions.",
        );
      return {
        type: 'function',
        function: {
          name: object.name,
          ...(typeof object.description === 'string' ? { description: object.description } : {}),
          parameters: objectOf(object.input_schema) ?? { type: 'object', properties: {} },
        },
      };
    });
  const choice = objectOf(body.tool_choice);
  if (choice) {
    if (choice.type === 'auto') out.tool_choice = 'auto';
    else if (choice.type === 'any') out.tool_choice = 'required';
    else if (choice.type === 'none') out.tool_choice = 'none';
    else if (choice.type === 'tool' && typeof choice.name === 'string')
      out.tool_choice = { type: 'function', function: { name: choice.name } };
    if (choice.disable_parallel_tool_use === true && out.tools) out.parallel_tool_calls = false;
  }
  return out;
}

/** OpenAI's finish reasons as Anthropic's stop reasons. */
function stopReason(finish: unknown): string {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'tool_calls' || finish === 'function_call') return 'tool_use';
  if (finish === 'content_filter') return 'refusal';
  return 'end_turn';
}

function anthropicUsage(usage: TJson | null): TJson {
  const details = objectOf(usage?.prompt_tokens_details);
  const cached = count(details?.cached_tokens);
  const created = count(details?.cache_creation_tokens);
  return {
    input_tokens: Math.max(0, count(usage?.prompt_tokens) - cached - created),
    cache_creation_input_tokens: created,
    cache_read_input_tokens: cached,
    output_tokens: count(usage?.completion_tokens),
  };
}

/** A chat completion as a Messages API answer (usage last: the meter reads it from the tail). */
export function messageFromChat(completion: TJson): TJson {
  const choice = objectOf(Array.isArray(completion.choices) ? completion.choices[0] : null);
  const message = objectOf(choice?.message);
  const content: TJson[] = [];
  if (typeof message?.content === 'string' && message.content !== '')
    content.push({ type: 'text', text: message.content });
  for (const call of Array.isArray(message?.tool_calls) ? message.tool_calls : []) {
    const fn = objectOf(objectOf(call)?.function);
    let input: unknown;
    try {
      input = JSON.parse(typeof fn?.arguments === 'string' && fn.arguments !== '' ? fn.arguments : '{}');
    } catch {
      input = {};
    }
    content.push({ type: 'tool_use', id: objectOf(call)?.id, name: fn?.name, input });
  }
  return {
    id: completion.id,
    type: 'message',
    role: 'assistant',
    model: completion.model,
    content,
    stop_reason: stopReason(choice?.finish_reason),
    stop_sequence: null,
    usage: anthropicUsage(objectOf(completion.usage)),
  };
}

/** Anthropic's error types by status. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
    case 422:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    default:
      return 'api_error';
  }
}

/** An error in Anthropic's shape: `{ type: "error", error: { type, message } }`. */
export function anthropicErrorBody(status: number, message: string): Buffer {
  return Buffer.from(JSON.stringify({ type: 'error', error: { type: anthropicErrorType(status), message } }));
}

/** An OpenAI-shaped error body (the gateway's, or an upstream's) in Anthropic's shape. */
export function errorFromChat(status: number, body: Buffer): Buffer {
  const error = objectOf(parseJson(body)?.error);
  const message = typeof error?.message === 'string' ? error.message : `The upstream answered ${status}.`;
  return anthropicErrorBody(status, message);
}

function event(type: string, data: TJson): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

const EMPTY = Buffer.alloc(0);

/**
 * Chat completion chunks as Anthropic's event stream: message_start and a ping first, a text
 * block for content deltas, a tool_use block per tool call (its argument deltas as
 * input_json_delta), then message_delta (stop reason, usage) and message_stop at the end.
 */
export class ChatToAnthropicStream {
  private readonly reader = new EventReader();
  private started = false;
  private ended = false;
  /** The open block: its index and kind, or null. */
  private open: { index: number; kind: 'text' | 'tool'; call: number } | null = null;
  private blocks = 0;
  private finish: unknown = null;
  private usage: TJson | null = null;
  private out = '';

  push(chunk: Buffer): Buffer {
    this.reader.push(chunk, this.onData);
    return this.take();
  }

  end(): Buffer {
    this.reader.end(this.onData);
    this.close();
    return this.take();
  }

  private take(): Buffer {
    if (this.out === '') return EMPTY;
    const bytes = Buffer.from(this.out);
    this.out = '';
    return bytes;
  }

  private start(chunk: TJson): void {
    if (this.started) return;
    this.started = true;
    this.out += event('message_start', {
      message: {
        id: chunk.id ?? 'msg_air',
        type: 'message',
        role: 'assistant',
        model: chunk.model ?? '',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
    this.out += event('ping', {});
  }

  private stopBlock(): void {
    if (this.open === null) return;
    this.out += event('content_block_stop', { index: this.open.index });
    this.open = null;
  }

  private readonly onData = (data: string): void => {
    if (data === '[DONE]') return this.close();
    let chunk: TJson | null;
    try {
      chunk = objectOf(JSON.parse(data));
    } catch {
      return;
    }
    if (!chunk) return;
    const error = objectOf(chunk.error);
    if (error) {
      const message = typeof error.message === 'string' ? error.message : 'The upstream stream failed.';
      this.out += event('error', { error: { type: 'api_error', message } });
      return;
    }
    this.start(chunk);
    const usage = objectOf(chunk.usage);
    if (usage) this.usage = usage;
    const choice = objectOf(Array.isArray(chunk.choices) ? chunk.choices[0] : null);
    if (!choice) return;
    const delta = objectOf(choice.delta);
    if (typeof delta?.content === 'string' && delta.content !== '') {
      if (this.open?.kind !== 'text') {
        this.stopBlock();
        this.open = { index: this.blocks++, kind: 'text', call: -1 };
        this.out += event('content_block_start', {
          index: this.open.index,
          content_block: { type: 'text', text: '' },
        });
      }
      this.out += event('content_block_delta', {
        index: this.open.index,
        delta: { type: 'text_delta', text: delta.content },
      });
    }
    for (const entry of Array.isArray(delta?.tool_calls) ? delta.tool_calls : []) {
      const call = objectOf(entry);
      const fn = objectOf(call?.function);
      const number = count(call?.index);
      if (this.open?.kind !== 'tool' || this.open.call !== number) {
        this.stopBlock();
        this.open = { index: this.blocks++, kind: 'tool', call: number };
        this.out += event('content_block_start', {
          index: this.open.index,
          content_block: {
            type: 'tool_use',
            id: call?.id ?? `toolu_${number}`,
            name: fn?.name ?? '',
            input: {},
          },
        });
      }
      if (typeof fn?.arguments === 'string' && fn.arguments !== '')
        this.out += event('content_block_delta', {
          index: this.open.index,
          delta: { type: 'input_json_delta', partial_json: fn.arguments },
        });
    }
    if (choice.finish_reason) this.finish = choice.finish_reason;
  };

  private close(): void {
    if (this.ended || !this.started) return;
    this.ended = true;
    this.stopBlock();
    const usage = anthropicUsage(this.usage);
    this.out += event('message_delta', {
      delta: { stop_reason: stopReason(this.finish), stop_sequence: null },
      usage,
    });
    this.out += event('message_stop', {});
  }
}

export function chatToAnthropicTranslator(): TAnswerTranslator {
  let stream: ChatToAnthropicStream | null = null;
  return {
    stream(chunk) {
      stream ??= new ChatToAnthropicStream();
      return stream.push(chunk);
    },
    streamEnd() {
      return stream ? stream.end() : EMPTY;
    },
    whole(status, body) {
      if (status >= 300) return { status, body: errorFromChat(status, body) };
      const completion = parseJson(body);
      if (!completion)
        return {
          status: 502,
          body: anthropicErrorBody(502, 'The upstream answered a body that is not its JSON answer.'),
        };
      return { status, body: Buffer.from(JSON.stringify(messageFromChat(completion))) };
    },
  };
}

/** Two translations one after the other: the upstream's answer to chat (`first`), chat to Anthropic (`then`). */
export function chained(first: TAnswerTranslator, then: TAnswerTranslator): TAnswerTranslator {
  return {
    stream: (chunk) => then.stream(first.stream(chunk)),
    streamEnd: () => {
      const rest = first.streamEnd();
      const out = rest.length > 0 ? then.stream(rest) : EMPTY;
      const last = then.streamEnd();
      return out.length === 0 ? last : last.length === 0 ? out : Buffer.concat([out, last]);
    },
    whole: (status, body) => {
      const middle = first.whole(status, body);
      return then.whole(middle.status, middle.body);
    },
  };
}
