/**
 * The OpenAI protocols the gateway serves (contract 6c), as adapters over one call pipeline
 * (gateway-call.ts): each says where its calls arrive, which upstream path serves them, whether and
 * how they stream, where `usage` is in an answer or a stream, and which body field bounds the
 * output. The pipeline reads these fields and never branches on a protocol's name. Every one of
 * them answers errors in OpenAI's shape (errors.ts).
 */

import type { TEndpointProtocol } from '@air/shared/schemas/aiendpoint';

/** An endpoint's registration names these (packages/shared's ENDPOINT_PROTOCOLS). */
export type TProtocolName = TEndpointProtocol;

/** Token counts read from an answer: null when the answer did not say. */
export interface TTokens {
  prompt: number | null;
  completion: number | null;
}

/** How a protocol's event stream carries its usage and its generated text. */
export interface TStreamReading {
  /** The generated text of an event, its JSON string's inside as the first group (global). */
  readonly content: RegExp;
  /** The usage an event carries, and whether the event carries nothing else; null when none. */
  usageOf(event: Record<string, unknown>): { tokens: TTokens; only: boolean } | null;
}

export interface TProtocol {
  /** Its name; `mcp` is the MCP proxy's tool calls (mcp-proxy.ts), served at `/api/mcp`. */
  readonly name: TProtocolName | 'mcp';
  /** Its path under `/api/v1`. */
  readonly path: string;
  /** The upstream path that serves it, beside `/chat/completions` in a registered URL. */
  readonly suffix: string;
  /** Where a JSON answer's `usage` counts are (read from the text after its last `"usage"`). */
  readonly usage: {
    readonly prompt: RegExp;
    readonly completion: RegExp | null;
    /** Counts added to the prompt's (Anthropic's cache reads and writes are not in its input tokens). */
    readonly promptExtra?: readonly RegExp[];
  };
  /** How its streams are read; null when it never streams (`stream` is not looked at). */
  readonly stream: TStreamReading | null;
  /** A stream sends usage only when asked (`stream_options.include_usage`): the gateway asks. */
  readonly asksStreamUsage: boolean;
  /** The body field that bounds the output, set by a spend reservation; null: no output tokens. */
  readonly outputField: 'max_tokens' | 'max_output_tokens' | null;
  /** The clients' API: OpenAI's, or Anthropic's Messages API (its calls and errors in its shape). */
  readonly client: 'openai' | 'anthropic';
}

/** One of the OpenAI protocols of `/api/v1`, which an endpoint's registration names. */
export type TOpenAiProtocol = TProtocol & { readonly name: TProtocolName };

const CHAT_SUFFIX = '/chat/completions';

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Chat and legacy completions: the usage chunk (empty `choices`) asked for with include_usage. */
function choicesUsage(event: Record<string, unknown>) {
  const usage = objectOf(event.usage);
  if (!usage) return null;
  const tokens = { prompt: count(usage.prompt_tokens), completion: count(usage.completion_tokens) };
  return { tokens, only: Array.isArray(event.choices) && event.choices.length === 0 };
}

const PROMPT_TOKENS = /"prompt_tokens"\s*:\s*(\d+)/;
const COMPLETION_TOKENS = /"completion_tokens"\s*:\s*(\d+)/;

export const CHAT: TOpenAiProtocol = {
  name: 'chat',
  path: '/v1/chat/completions',
  suffix: CHAT_SUFFIX,
  usage: { prompt: PROMPT_TOKENS, completion: COMPLETION_TOKENS },
  stream: { content: /"content"\s*:\s*"((?:[^"\\]|\\.)*)"/g, usageOf: choicesUsage },
  asksStreamUsage: true,
  outputField: 'max_tokens',
  client: 'openai',
};

export const COMPLETIONS: TOpenAiProtocol = {
  name: 'completions',
  path: '/v1/completions',
  suffix: '/completions',
  usage: { prompt: PROMPT_TOKENS, completion: COMPLETION_TOKENS },
  stream: { content: /"text"\s*:\s*"((?:[^"\\]|\\.)*)"/g, usageOf: choicesUsage },
  asksStreamUsage: true,
  outputField: 'max_tokens',
  client: 'openai',
};

/** The Responses API: its stream always ends with `response.completed`, which holds the usage. */
export const RESPONSES: TOpenAiProtocol = {
  name: 'responses',
  path: '/v1/responses',
  suffix: '/responses',
  usage: { prompt: /"input_tokens"\s*:\s*(\d+)/, completion: /"output_tokens"\s*:\s*(\d+)/ },
  stream: {
    content: /"delta"\s*:\s*"((?:[^"\\]|\\.)*)"/g,
    usageOf(event) {
      const usage = objectOf(objectOf(event.response)?.usage);
      if (!usage) return null;
      return {
        tokens: { prompt: count(usage.input_tokens), completion: count(usage.output_tokens) },
        only: false,
      };
    },
  },
  asksStreamUsage: false,
  outputField: 'max_output_tokens',
  client: 'openai',
};

/** Embeddings: priced by input tokens, no output, never streamed. */
export const EMBEDDINGS: TOpenAiProtocol = {
  name: 'embeddings',
  path: '/v1/embeddings',
  suffix: '/embeddings',
  usage: { prompt: PROMPT_TOKENS, completion: null },
  stream: null,
  asksStreamUsage: false,
  outputField: null,
  client: 'openai',
};

const CACHE_TOKENS = [/"cache_creation_input_tokens"\s*:\s*(\d+)/, /"cache_read_input_tokens"\s*:\s*(\d+)/];

/** Anthropic's usage object: the prompt is its input tokens plus its cache reads and writes. */
function anthropicTokens(usage: Record<string, unknown>): TTokens {
  const input = count(usage.input_tokens);
  return {
    prompt:
      input === null
        ? null
        : input +
          (count(usage.cache_creation_input_tokens) ?? 0) +
          (count(usage.cache_read_input_tokens) ?? 0),
    completion: count(usage.output_tokens),
  };
}

/**
 * Anthropic's Messages API for Anthropic clients (`/v1/messages`, contract 6c): served by every
 * chat route (the route is the body's `model`); its usage comes in `message_start` (input) and
 * `message_delta` (output), and its errors in Anthropic's shape.
 */
export const MESSAGES: TProtocol = {
  name: 'chat',
  path: '/v1/messages',
  suffix: CHAT_SUFFIX,
  usage: {
    prompt: /"input_tokens"\s*:\s*(\d+)/,
    completion: /"output_tokens"\s*:\s*(\d+)/,
    promptExtra: CACHE_TOKENS,
  },
  stream: {
    content: /"text"\s*:\s*"((?:[^"\\]|\\.)*)"/g,
    usageOf(event) {
      if (event.type === 'message_start') {
        const usage = objectOf(objectOf(event.message)?.usage);
        return usage
          ? { tokens: { prompt: anthropicTokens(usage).prompt, completion: null }, only: false }
          : null;
      }
      if (event.type !== 'message_delta') return null;
      const usage = objectOf(event.usage);
      if (!usage) return null;
      const tokens = anthropicTokens(usage);
      // message_delta's input tokens, when it has them, are the final count (0 from a translated stream's start).
      return { tokens: { prompt: tokens.prompt || null, completion: tokens.completion }, only: false };
    },
  },
  asksStreamUsage: false,
  outputField: 'max_tokens',
  client: 'anthropic',
};

/**
 * An MCP tool call (contract 6d, mcp-proxy.ts): admitted and metered by the one call pipeline,
 * with no tokens (an MCP endpoint is priced per call), no output bound and no stream of usage.
 */
export const MCP_TOOL_CALL: TProtocol = {
  name: 'mcp',
  path: '/mcp',
  suffix: '',
  usage: { prompt: /(?!)/, completion: null },
  stream: null,
  asksStreamUsage: false,
  outputField: null,
  // Not translated: MCP answers go out as the server sent them.
  client: 'openai',
};

/** Every protocol, in the order `unsupported_endpoint` names them. */
export const PROTOCOLS: readonly TOpenAiProtocol[] = [CHAT, RESPONSES, EMBEDDINGS, COMPLETIONS];

/**
 * The upstream path for a protocol's call on a registered path (its query kept), or null when the
 * route cannot serve it: a URL ending in `/chat/completions` is the base for its siblings; any
 * other URL serves chat alone (it is called as registered).
 */
export function upstreamPath(path: string, protocol: TProtocol): string | null {
  if (protocol.suffix === CHAT_SUFFIX) return path;
  const query = path.indexOf('?');
  const base = query < 0 ? path : path.slice(0, query);
  if (!base.endsWith(CHAT_SUFFIX)) return null;
  return base.slice(0, -CHAT_SUFFIX.length) + protocol.suffix + (query < 0 ? '' : path.slice(query));
}

/** The protocols a route's registered path serves (`unsupported_endpoint` names them). */
export function servedProtocols(path: string): TProtocolName[] {
  return PROTOCOLS.filter((protocol) => upstreamPath(path, protocol) !== null).map((p) => p.name);
}
