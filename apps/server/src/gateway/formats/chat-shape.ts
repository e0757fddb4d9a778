/**
 * What the provider formats (anthropic.ts, gemini.ts) share of OpenAI's chat completions shape:
 * reading a request's fields, refusing what a provider has no translation for (a clear 400
 * naming the field), and writing answers, stream chunks and errors the way OpenAI sends them.
 */

import { StringDecoder } from 'node:string_decoder';

export type TJson = Record<string, unknown>;

/** A request field the upstream's format cannot carry: answered 400 `unsupported_parameter`. */
export class Untranslatable extends Error {
  constructor(message: string) {
    super(message);
  }
}

export function objectOf(value: unknown): TJson | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as TJson) : null;
}

export function fail(message: string): never {
  throw new Untranslatable(message);
}

/**
 * Fields of a chat request every format reads or may ignore: the model, the messages, sampling,
 * tools, the stream and its options, and bookkeeping fields with no effect on the answer.
 */
export const IGNORED_FIELDS = new Set(['stream_options', 'store', 'metadata', 'service_tier', 'user']);

/** Fields that are refused unless given their no-op value (false, 0, null, an empty object). */
export function isNoOp(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0) return true;
  const object = objectOf(value);
  return object !== null && Object.keys(object).length === 0;
}

/** `stop`: a string or up to a few strings. */
export function stopSequences(stop: unknown): string[] | null {
  if (stop === undefined || stop === null) return null;
  if (typeof stop === 'string') return [stop];
  if (Array.isArray(stop) && stop.every((item) => typeof item === 'string')) return stop as string[];
  return fail('"stop" must be a string or an array of strings.');
}

/** The output bound: `max_completion_tokens` (today's name) or `max_tokens`. */
export function maxTokens(body: TJson): number | null {
  const value = body.max_completion_tokens ?? body.max_tokens;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    return fail('"max_tokens" must be a positive integer.');
  return value;
}

export function numberOr(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`"${name}" must be a number.`);
  return value;
}

/** A message's text when its content is a string or text parts only (system, developer, tool messages). */
export function textOf(content: unknown, role: string): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content))
    return fail(`A ${role} message's "content" must be a string or an array of parts.`);
  let text = '';
  for (const part of content) {
    const object = objectOf(part);
    if (!object || object.type !== 'text' || typeof object.text !== 'string')
      return fail(`A ${role} message's content may only hold text parts here.`);
    text += text === '' ? object.text : `\n${object.text}`;
  }
  return text;
}

/** An image given as a `data:` URL: its media type and base64 data, else null (a plain URL). */
export function dataUrl(url: string): { mediaType: string; data: string } | null {
  if (!url.startsWith('data:')) return null;
  const comma = url.indexOf(',');
  const meta = url.slice(5, comma);
  if (comma < 0 || !meta.endsWith(';base64'))
    return fail('An image data URL must be base64 ("data:image/png;base64,...").');
  return { mediaType: meta.slice(0, -7), data: url.slice(comma + 1) };
}

/** A tool call's `arguments` (a JSON object in a string) as the object the providers take. */
export function toolArguments(raw: unknown): TJson {
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    const parsed = objectOf(JSON.parse(raw));
    if (parsed) return parsed;
  } catch {
    // refused below
  }
  return fail('A tool call\'s "function.arguments" must be a JSON object.');
}

/** The tools of a request: name, description and JSON schema of each function. */
export function functionsOf(
  tools: unknown,
): { name: string; description?: string; parameters: TJson | null }[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) return fail('"tools" must be an array.');
  return tools.map((tool) => {
    const object = objectOf(tool);
    const fn = objectOf(object?.function);
    if (!object || object.type !== 'function' || !fn || typeof fn.name !== 'string')
      return fail('Only "function" tools are translated: each needs "function.name".');
    return {
      name: fn.name,
      ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
      parameters: objectOf(fn.parameters),
    };
  });
}

/** `tool_choice`: a mode, or the one function the model must call. */
export function toolChoiceOf(
  value: unknown,
): { mode: 'auto' | 'none' | 'required' } | { name: string } | null {
  if (value === undefined || value === null) return null;
  if (value === 'auto' || value === 'none' || value === 'required') return { mode: value };
  const fn = objectOf(objectOf(value)?.function);
  if (fn && typeof fn.name === 'string') return { name: fn.name };
  return fail(
    '"tool_choice" must be "auto", "none", "required" or { type: "function", function: { name } }.',
  );
}

/** `response_format`: plain text, any JSON object, or JSON matching a schema. */
export function responseFormatOf(value: unknown): { schema: TJson | null; name: string } | null {
  if (value === undefined || value === null) return null;
  const object = objectOf(value);
  if (object?.type === 'text') return null;
  if (object?.type === 'json_object') return { schema: null, name: 'json_object' };
  const spec = objectOf(object?.json_schema);
  if (object?.type === 'json_schema' && spec) {
    const name = typeof spec.name === 'string' ? spec.name : 'response';
    return { schema: objectOf(spec.schema) ?? { type: 'object' }, name };
  }
  return fail(
    '"response_format" must be { type: "text" }, { type: "json_object" } or { type: "json_schema", json_schema }.',
  );
}

/** What a provider's answer is turned into: OpenAI's usage object, prompt counts including cached ones. */
export interface TChatUsage {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheCreation: number;
  reasoning: number;
}

export function usageJson(usage: TChatUsage): TJson {
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, cache_creation_tokens: usage.cacheCreation },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
}

export function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** An error in OpenAI's shape with the provider's message (its type kept as `type` and `code`). */
export function openAiError(message: string, type: string, code: string | null = null): Buffer {
  return Buffer.from(JSON.stringify({ error: { message, type, param: null, code } }));
}

/** A 2xx answer that is not the provider's JSON: the caller gets a 502 in OpenAI's shape. */
export function unreadable(format: string): Buffer {
  return openAiError(
    `The upstream (${format}) answered a body that is not its JSON answer.`,
    'api_error',
    'upstream_unreadable',
  );
}

export function parseJson(body: Buffer): TJson | null {
  try {
    return objectOf(JSON.parse(body.toString('utf8')));
  } catch {
    return null;
  }
}

export const DONE = 'data: [DONE]\n\n';

/** One event of a streamed chat completion: `data: {…}` and its blank line. */
export function chunkEvent(prefix: string, choices: string, usage?: TJson): string {
  return `data: ${prefix}"choices":${choices}${usage ? `,"usage":${JSON.stringify(usage)}` : ''}}\n\n`;
}

/** `{"id":…,"object":"chat.completion.chunk","created":…,"model":…,` — each chunk's opening, built once. */
export function chunkPrefix(id: string, model: string): string {
  const created = Math.floor(Date.now() / 1000);
  return `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},`;
}

/** Splits whole server-sent events off a byte stream: answers each event's `data` text. */
export class EventReader {
  private carry = '';
  /** A character cut across two chunks is held until its last byte comes. */
  private readonly decoder = new StringDecoder('utf8');

  /** The data of each whole event in the chunk (an event cut across chunks waits for its end). */
  push(chunk: Buffer, each: (data: string) => void): void {
    const text = this.carry + this.decoder.write(chunk);
    let from = 0;
    for (;;) {
      const end = eventEnd(text, from);
      if (end < 0) break;
      const data = dataOf(text.slice(from, end));
      if (data !== null) each(data);
      from = end + (text.startsWith('\r\n\r\n', end) ? 4 : 2);
    }
    this.carry = from === 0 ? text : text.slice(from);
  }

  /** What is left at the end of the stream (an event without its blank line). */
  end(each: (data: string) => void): void {
    const data = dataOf(this.carry + this.decoder.end());
    this.carry = '';
    if (data !== null) each(data);
  }
}

function eventEnd(text: string, from: number): number {
  const lf = text.indexOf('\n\n', from);
  const crlf = text.indexOf('\r\n\r\n', from);
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return crlf;
  return lf;
}

/** An event's `data:` lines joined (the SSE rule), or null when it has none. */
function dataOf(event: string): string | null {
  let data: string | null = null;
  for (const line of event.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const value = line.charCodeAt(5) === 0x20 ? line.slice(6) : line.slice(5);
    data = data === null ? value : `${data}\n${value}`;
  }
  return data;
}
