/**
 * OpenAI chat completions to Gemini's generateContent / streamGenerateContent (`alt=sse`) and
 * back (contract 6c, decision 054): the request body and its path, the JSON answer, the event
 * stream and error bodies.
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
  responseFormatOf,
  stopSequences,
  textOf,
  toolArguments,
  toolChoiceOf,
  unreadable,
  usageJson,
  type TChatUsage,
  type TJson,
} from './chat-shape';
import type { TAnswerTranslator } from './types';

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
  'response_format',
  'n',
  'seed',
  'presence_penalty',
  'frequency_penalty',
]);

/** A tool call id carries Gemini's thought signature after this (Gemini 3 wants it back). */
const SIGNATURE_MARK = '.';

/** Media types of image URLs Gemini reads (`fileData` needs one), by extension. */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
};

function imagePart(part: TJson): TJson {
  const url = objectOf(part.image_url)?.url;
  if (typeof url !== 'string') return fail('An "image_url" part needs "image_url.url".');
  const inline = dataUrl(url);
  if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  const path = url.split(/[?#]/, 1)[0]!;
  const mimeType = IMAGE_TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()];
  if (!mimeType)
    return fail(
      'An image URL sent to Gemini must end in .png, .jpg, .jpeg, .webp, .gif, .heic or .heif (or be a data URL).',
    );
  return { fileData: { mimeType, fileUri: url } };
}

function userParts(content: unknown): TJson[] {
  if (typeof content === 'string') return [{ text: content }];
  if (!Array.isArray(content))
    return fail('A user message\'s "content" must be a string or an array of parts.');
  return content.map((part) => {
    const object = objectOf(part);
    if (object?.type === 'text' && typeof object.text === 'string') return { text: object.text };
    if (object?.type === 'image_url') return imagePart(object);
    return fail(`A "${String(object?.type)}" content part is not translated to Gemini.`);
  });
}

function callId(index: number, signature: unknown): string {
  return `call_${index}${typeof signature === 'string' && signature !== '' ? SIGNATURE_MARK + signature : ''}`;
}

function signatureOf(id: string): string | null {
  const at = id.indexOf(SIGNATURE_MARK);
  return id.startsWith('call_') && at > 0 ? id.slice(at + 1) : null;
}

/** The Gemini body for an OpenAI chat request, or Untranslatable (chat-shape.ts). */
export function geminiRequest(body: TJson): TJson {
  for (const name of Object.keys(body)) {
    if (READ_FIELDS.has(name) || IGNORED_FIELDS.has(name) || isNoOp(body[name])) continue;
    return fail(`"${name}" is not translated to Gemini (this route's upstream format is gemini).`);
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return fail('"messages" must be a non-empty array.');
  const system: TJson[] = [];
  const contents: { role: 'user' | 'model'; parts: TJson[] }[] = [];
  const names = new Map<string, string>();
  const add = (role: 'user' | 'model', parts: TJson[]) => {
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const entry of body.messages) {
    const message = objectOf(entry);
    if (!message) return fail('Each of "messages" must be an object.');
    const role = message.role;
    if (role === 'system' || role === 'developer') system.push({ text: textOf(message.content, role) });
    else if (role === 'user') add('user', userParts(message.content));
    else if (role === 'assistant') {
      const parts: TJson[] = [];
      const text = textOf(message.content, 'assistant');
      if (text !== '') parts.push({ text });
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
        const object = objectOf(call);
        const fn = objectOf(object?.function);
        if (!object || typeof object.id !== 'string' || !fn || typeof fn.name !== 'string')
          return fail('Each of an assistant message\'s "tool_calls" needs "id" and "function.name".');
        names.set(object.id, fn.name);
        const signature = signatureOf(object.id);
        parts.push({
          functionCall: { name: fn.name, args: toolArguments(fn.arguments) },
          ...(signature ? { thoughtSignature: signature } : {}),
        });
      }
      add('model', parts);
    } else if (role === 'tool') {
      const id = message.tool_call_id;
      const name = typeof id === 'string' ? names.get(id) : undefined;
      if (name === undefined)
        return fail(
          'A tool message\'s "tool_call_id" must name a tool call of an earlier assistant message.',
        );
      const text = textOf(message.content, 'tool');
      let response: TJson;
      try {
        response = objectOf(JSON.parse(text)) ?? { result: text };
      } catch {
        response = { result: text };
      }
      add('user', [{ functionResponse: { name, response } }]);
    } else return fail(`A "${String(role)}" message is not translated to Gemini.`);
  }
  const out: TJson = { contents };
  if (system.length > 0) out.systemInstruction = { parts: system };
  const config: TJson = {};
  const max = maxTokens(body);
  if (max !== null) config.maxOutputTokens = max;
  const temperature = numberOr(body.temperature, 'temperature');
  if (temperature !== undefined) config.temperature = temperature;
  const topP = numberOr(body.top_p, 'top_p');
  if (topP !== undefined) config.topP = topP;
  const seed = numberOr(body.seed, 'seed');
  if (seed !== undefined) config.seed = seed;
  const presence = numberOr(body.presence_penalty, 'presence_penalty');
  if (presence !== undefined) config.presencePenalty = presence;
  const frequency = numberOr(body.frequency_penalty, 'frequency_penalty');
  if (frequency !== undefined) config.frequencyPenalty = frequency;
  const n = numberOr(body.n, 'n');
  if (n !== undefined && n !== 1) config.candidateCount = n;
  const stop = stopSequences(body.stop);
  if (stop) config.stopSequences = stop;
  const format = responseFormatOf(body.response_format);
  if (format) {
    config.responseMimeType = 'application/json';
    if (format.schema) config.responseJsonSchema = format.schema;
  }
  if (Object.keys(config).length > 0) out.generationConfig = config;
  const tools = functionsOf(body.tools);
  if (tools.length > 0)
    out.tools = [
      {
        functionDeclarations: tools.map((tool) => ({
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          ...(tool.parameters ? { parametersJsonSchema: tool.parameters } : {}),
        })),
      },
    ];
  const choice = toolChoiceOf(body.tool_choice);
  if (choice && 'name' in choice)
    out.toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  else if (choice)
    out.toolConfig = {
      functionCallingConfig: {
        mode: choice.mode === 'required' ? 'ANY' : choice.mode === 'none' ? 'NONE' : 'AUTO',
      },
    };
  return out;
}

/**
 * The upstream path: a URL naming the method (`…/models/{model}:generateContent`) is called with
 * its own model, the stream method swapped in when streamed; any other URL is the API's base
 * (`…/v1beta`), followed by `/models/{model}:…` with the body's model.
 */
export function geminiPath(base: string, model: unknown, stream: boolean): string {
  const query = base.indexOf('?');
  let path = query < 0 ? base : base.slice(0, query);
  const search = query < 0 ? '' : base.slice(query + 1);
  const method = path.lastIndexOf(':');
  if (method > path.lastIndexOf('/')) path = path.slice(0, method);
  else {
    if (typeof model !== 'string' || model === '') return fail('"model" must name the Gemini model.');
    const name = model.startsWith('models/') ? model.slice(7) : model;
    const trimmed = path.replace(/\/+$/, '');
    path = `${trimmed}${trimmed.endsWith('/models') ? '' : '/models'}/${encodeURIComponent(name)}`;
  }
  const params = stream ? (search === '' ? 'alt=sse' : `${search}&alt=sse`) : search;
  return `${path}:${stream ? 'streamGenerateContent' : 'generateContent'}${params === '' ? '' : `?${params}`}`;
}

export function geminiFinish(reason: unknown, calls: boolean): string | null {
  switch (reason) {
    case undefined:
    case null:
    case 'FINISH_REASON_UNSPECIFIED':
      return null;
    case 'STOP':
      return calls ? 'tool_calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    default:
      return calls ? 'tool_calls' : 'stop';
  }
}

function usageOf(metadata: TJson | null): TChatUsage {
  const thoughts = count(metadata?.thoughtsTokenCount);
  return {
    prompt: count(metadata?.promptTokenCount) + count(metadata?.toolUsePromptTokenCount),
    completion: count(metadata?.candidatesTokenCount) + thoughts,
    cacheRead: count(metadata?.cachedContentTokenCount),
    cacheCreation: 0,
    reasoning: thoughts,
  };
}

/** A candidate's text (thought summaries left out) and its function calls as OpenAI tool calls. */
function readParts(content: TJson | null, firstCall: number): { text: string | null; calls: TJson[] } {
  let text: string | null = null;
  const calls: TJson[] = [];
  for (const part of Array.isArray(content?.parts) ? content.parts : []) {
    const object = objectOf(part);
    if (!object || object.thought === true) continue;
    if (typeof object.text === 'string') text = (text ?? '') + object.text;
    const call = objectOf(object.functionCall);
    if (call)
      calls.push({
        id: callId(firstCall + calls.length, object.thoughtSignature),
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
      });
  }
  return { text, calls };
}

/** A generateContent answer as a chat completion (usage last: the meter reads it from the tail). */
export function geminiAnswer(answer: TJson, model: string): TJson {
  const candidates = Array.isArray(answer.candidates) ? answer.candidates : [];
  const choices = candidates.map((entry, i) => {
    const candidate = objectOf(entry) ?? {};
    const { text, calls } = readParts(objectOf(candidate.content), 0);
    const message: TJson = { role: 'assistant', content: text, refusal: null };
    if (calls.length > 0) message.tool_calls = calls;
    const index = typeof candidate.index === 'number' ? candidate.index : i;
    return {
      index,
      message,
      logprobs: null,
      finish_reason: geminiFinish(candidate.finishReason, calls.length > 0) ?? 'stop',
    };
  });
  // A prompt blocked before any candidate: one empty choice, filtered.
  if (choices.length === 0)
    choices.push({
      index: 0,
      message: { role: 'assistant', content: null, refusal: null },
      logprobs: null,
      finish_reason: 'content_filter',
    });
  return {
    id: typeof answer.responseId === 'string' ? answer.responseId : 'chatcmpl-air',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: typeof answer.modelVersion === 'string' ? answer.modelVersion : model,
    choices,
    usage: usageJson(usageOf(objectOf(answer.usageMetadata))),
  };
}

const ERROR_TYPES: Record<string, string> = {
  INVALID_ARGUMENT: 'invalid_request_error',
  FAILED_PRECONDITION: 'invalid_request_error',
  UNAUTHENTICATED: 'authentication_error',
  PERMISSION_DENIED: 'permission_error',
  NOT_FOUND: 'not_found_error',
  RESOURCE_EXHAUSTED: 'rate_limit_error',
};

/** A Google error body (`{ error: { code, message, status } }`) in OpenAI's shape. */
export function geminiError(status: number, body: Buffer): Buffer {
  let error = objectOf(parseJson(body)?.error);
  if (!error) {
    // A stream's error may come as an array of one answer.
    try {
      const list = JSON.parse(body.toString('utf8')) as unknown;
      if (Array.isArray(list)) error = objectOf(objectOf(list[0])?.error);
    } catch {
      error = null;
    }
  }
  if (error && typeof error.message === 'string') {
    const code = typeof error.status === 'string' ? error.status : null;
    return openAiError(error.message, (code && ERROR_TYPES[code]) ?? 'api_error', code);
  }
  return openAiError(`The upstream (gemini) answered ${status} without a readable error.`, 'api_error');
}

const EMPTY = Buffer.alloc(0);

/**
 * A streamGenerateContent (`alt=sse`) stream as chat completion chunks: each answer's text as
 * content deltas, each function call as one whole tool-call delta, the finish reason, then the
 * last usage seen in a chunk of its own before `[DONE]`.
 */
export class GeminiStream {
  private readonly reader = new EventReader();
  private prefix: string | null = null;
  private usage: TJson | null = null;
  /** Tool calls sent so far, per candidate (each call's index among its candidate's). */
  private readonly calls = new Map<number, number>();
  private out = '';

  constructor(private readonly model: string) {}

  push(chunk: Buffer): Buffer {
    this.reader.push(chunk, this.onData);
    return this.take();
  }

  end(): Buffer {
    this.reader.end(this.onData);
    if (this.prefix !== null)
      this.out += chunkEvent(this.prefix, '[]', usageJson(usageOf(this.usage))) + DONE;
    this.prefix = null;
    return this.take();
  }

  private take(): Buffer {
    if (this.out === '') return EMPTY;
    const bytes = Buffer.from(this.out);
    this.out = '';
    return bytes;
  }

  private readonly onData = (data: string): void => {
    let answer: TJson | null;
    try {
      answer = objectOf(JSON.parse(data));
    } catch {
      return;
    }
    if (!answer) return;
    const error = objectOf(answer.error);
    if (error) {
      const message = typeof error.message === 'string' ? error.message : 'The upstream stream failed.';
      this.out += `data: ${JSON.stringify({ error: { message, type: 'api_error', param: null, code: error.status ?? null } })}\n\n`;
      return;
    }
    if (this.prefix === null) {
      const id = typeof answer.responseId === 'string' ? answer.responseId : 'chatcmpl-air';
      const model = typeof answer.modelVersion === 'string' ? answer.modelVersion : this.model;
      this.prefix = chunkPrefix(id, model);
      this.out += chunkEvent(
        this.prefix,
        '[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]',
      );
    }
    const usage = objectOf(answer.usageMetadata);
    if (usage) this.usage = usage;
    const candidates = Array.isArray(answer.candidates) ? answer.candidates : [];
    for (let i = 0; i < candidates.length; i++) {
      const candidate = objectOf(candidates[i]) ?? {};
      const index = typeof candidate.index === 'number' ? candidate.index : i;
      const sent = this.calls.get(index) ?? 0;
      const { text, calls } = readParts(objectOf(candidate.content), sent);
      const delta: TJson = {};
      if (text !== null && text !== '') delta.content = text;
      if (calls.length > 0) {
        delta.tool_calls = calls.map((call, n) => ({ index: sent + n, ...call }));
        this.calls.set(index, sent + calls.length);
      }
      const finish = geminiFinish(candidate.finishReason, sent + calls.length > 0);
      if (Object.keys(delta).length > 0 || finish !== null)
        this.out += chunkEvent(
          this.prefix,
          JSON.stringify([{ index, delta, logprobs: null, finish_reason: finish }]),
        );
    }
  };
}

export function geminiTranslator(model: string): TAnswerTranslator {
  let stream: GeminiStream | null = null;
  return {
    stream(chunk) {
      stream ??= new GeminiStream(model);
      return stream.push(chunk);
    },
    streamEnd() {
      return stream ? stream.end() : EMPTY;
    },
    whole(status, body) {
      if (status >= 300) return { status, body: geminiError(status, body) };
      const answer = parseJson(body);
      if (!answer) return { status: 502, body: unreadable('gemini') };
      return { status, body: Buffer.from(JSON.stringify(geminiAnswer(answer, model))) };
    },
  };
}
