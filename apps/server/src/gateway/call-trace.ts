import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { TKeyAuth } from '../core/credentials';
import type { TTracing } from '../lib/tracing-sdk';
import type { TUsageRow } from '../modules/usage/service';
import type { TRouteEntry, TUpstreamTarget } from './directory';
import type { TProtocol, TProtocolName } from './protocols';
import type { TCallResult } from './upstream';

/*
 * A gateway call's spans (only made when tracing is on: the call's `trace` is null otherwise and
 * nothing here runs). The call is one SERVER span, continuing the caller's `traceparent` when it
 * sent a valid one; each upstream attempt is a CLIENT span under it, whose context goes to the
 * upstream in `traceparent`. Attributes follow OpenTelemetry's GenAI conventions (gen_ai.*), plus
 * AIR's own (air.*). Ids and figures only: a prompt or an answer is recorded only where the
 * endpoint's owner turned `trace_content` on, as two bounded events.
 */

/** gen_ai.operation.name per protocol (the Responses API is a chat operation). */
const OPERATIONS: Record<TProtocolName | 'mcp', string> = {
  mcp: 'execute_tool',
  chat: 'chat',
  responses: 'chat',
  completions: 'text_completion',
  embeddings: 'embeddings',
};

/** gen_ai.provider.name for the providers' own API hosts; any other upstream is `_OTHER`. */
const PROVIDERS: [RegExp, string][] = [
  [/(^|\.)api\.openai\.com$/, 'openai'],
  [/\.openai\.azure\.com$/, 'azure.ai.openai'],
  [/(^|\.)api\.anthropic\.com$/, 'anthropic'],
  [/^generativelanguage\.googleapis\.com$/, 'gcp.gemini'],
  [/aiplatform\.googleapis\.com$/, 'gcp.vertex_ai'],
  [/^bedrock-runtime\.[a-z0-9-]+\.amazonaws\.com$/, 'aws.bedrock'],
  [/(^|\.)api\.mistral\.ai$/, 'mistral_ai'],
  [/(^|\.)api\.groq\.com$/, 'groq'],
  [/(^|\.)api\.deepseek\.com$/, 'deepseek'],
  [/(^|\.)api\.perplexity\.ai$/, 'perplexity'],
  [/(^|\.)api\.x\.ai$/, 'x_ai'],
  [/(^|\.)api\.cohere\.(ai|com)$/, 'cohere'],
];

export function providerOf(host: string): string {
  const name = host.replace(/:\d+$/, '').toLowerCase();
  for (const [pattern, provider] of PROVIDERS) if (pattern.test(name)) return provider;
  return '_OTHER';
}

/** An upstream's span attributes, read from its URL once per route entry (entries are reused). */
const upstreams = new WeakMap<TUpstreamTarget, { address: string; port: number; provider: string }>();
function upstreamOf(target: TUpstreamTarget) {
  let found = upstreams.get(target);
  if (found === undefined) {
    const url = new URL(target.origin);
    const address = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    found = { address, port, provider: providerOf(address) };
    upstreams.set(target, found);
  }
  return found;
}

/** Characters of a prompt or an answer kept in a content event. */
export const CONTENT_LIMIT = 16_384;

const MODEL = /"model"\s*:\s*"((?:[^"\\]|\\.){1,200})"/;

/** The answering model of a JSON answer (`model` is near its start in every protocol's answer). */
function responseModel(body: Buffer | null): string | null {
  if (body === null) return null;
  const found = MODEL.exec(body.toString('utf8', 0, Math.min(body.length, 4096)));
  return found ? found[1]! : null;
}

/** A content event's attributes: the text cut at CONTENT_LIMIT characters, saying when it was. */
function contentOf(name: string, text: string | Buffer): Attributes {
  // A buffer is read no further than the most bytes the limit's characters can take.
  const cut = typeof text !== 'string' && text.length > CONTENT_LIMIT * 4;
  const full =
    typeof text === 'string' ? text : text.toString('utf8', 0, Math.min(text.length, CONTENT_LIMIT * 4));
  const truncated = cut || full.length > CONTENT_LIMIT;
  return {
    [name]: truncated ? full.slice(0, CONTENT_LIMIT) : full,
    ...(truncated ? { 'air.content_truncated': true } : {}),
  };
}

/** Makes each call's trace; one per gateway, from the app's tracer. */
export class GatewayTracing {
  /** The open traces by the response they answer on: a refusal finds its call's trace here. */
  private readonly open = new WeakMap<ServerResponse, CallTrace>();

  constructor(private readonly tracing: TTracing) {}

  start(
    headers: IncomingHttpHeaders,
    protocol: TProtocol,
    requestId: string,
    res: ServerResponse,
  ): CallTrace {
    const parent = this.tracing.propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const call = new CallTrace(this.tracing, parent, protocol, requestId);
    this.open.set(res, call);
    return call;
  }

  /** The gateway refused the call (ctx.refuse): its span ends with the refusal. */
  refused(res: ServerResponse, code: string, status: number): void {
    const call = this.open.get(res);
    if (call === undefined) return;
    this.open.delete(res);
    call.refused(code, status);
  }
}

export class CallTrace {
  readonly span: Span;
  private readonly context: Context;
  private readonly operation: string;
  private attempt: Span | null = null;
  private routeName: string | null = null;
  private host: string | null = null;
  private provider = '_OTHER';
  private model: string | null = null;
  private ended = false;
  private forwarded = false;
  /** When the answer ended (the span ends then, once the tokens are counted). */
  private endTime = 0;

  constructor(
    private readonly tracing: TTracing,
    parent: Context,
    protocol: TProtocol,
    requestId: string,
  ) {
    this.operation = OPERATIONS[protocol.name];
    this.span = tracing.tracer.startSpan(
      this.operation,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'gen_ai.operation.name': this.operation,
          'http.request.method': 'POST',
          'url.path': `/api${protocol.path}`,
          'air.request_id': requestId,
        },
      },
      parent,
    );
    this.context = trace.setSpan(parent, this.span);
  }

  /** The call's route and key, once the route is found and callable. */
  route(route: TRouteEntry, key: TKeyAuth): void {
    this.routeName = route.routeName;
    this.span.updateName(`${this.operation} ${route.routeName}`);
    this.span.setAttributes({
      'gen_ai.request.model': route.routeName,
      'air.route': route.routeName,
      'air.endpoint_id': route.endpointId,
      'air.key_id': key.keyId,
      'air.account_id': key.accountId,
    });
  }

  /**
   * One upstream attempt begins: its CLIENT span, and the headers to send with its context in
   * `traceparent` (the route's own headers are shared by every call, so they are copied).
   */
  startAttempt(route: TRouteEntry, target: TUpstreamTarget, number: number): Record<string, string> {
    this.forwarded = true;
    this.closeAttempt(null);
    const upstream = upstreamOf(target);
    const model = route.upstreamModel ?? route.routeName;
    const span = this.tracing.tracer.startSpan(
      `${this.operation} ${model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': this.operation,
          'gen_ai.provider.name': upstream.provider,
          'gen_ai.system': upstream.provider,
          'gen_ai.request.model': model,
          'http.request.method': 'POST',
          'server.address': upstream.address,
          'server.port': upstream.port,
          'air.route': route.routeName,
          'air.attempt': number,
        },
      },
      this.context,
    );
    this.attempt = span;
    this.host = target.host;
    this.provider = upstream.provider;
    const headers = { ...target.headers };
    this.tracing.propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
    return headers;
  }

  /** An attempt ended: retried (another follows), or the one whose answer the caller got. */
  attemptDone(result: TCallResult): void {
    this.closeAttempt(result);
  }

  private closeAttempt(result: TCallResult | null): void {
    const span = this.attempt;
    if (span === null) return;
    this.attempt = null;
    if (result !== null) {
      const attributes: Attributes = { 'air.retried': result.retried === true };
      if (result.status > 0) attributes['http.response.status_code'] = result.status;
      const error =
        result.errorCode ??
        (result.clientGone ? 'client_closed' : result.status >= 400 ? String(result.status) : null);
      if (error !== null) {
        attributes['error.type'] = error;
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      const model = responseModel(result.body);
      if (model !== null) {
        attributes['gen_ai.response.model'] = model;
        this.model = model;
      }
      span.setAttributes(attributes);
    }
    span.end();
  }

  /** Refused by the gateway itself before anything was sent. */
  refused(code: string, status: number): void {
    if (this.ended) return;
    this.ended = true;
    this.span.setAttributes({ 'http.response.status_code': status, 'error.type': code });
    if (status >= 500) this.span.setStatus({ code: SpanStatusCode.ERROR });
    this.span.end();
  }

  /** The handler is done with the call: one neither refused nor sent was left by its caller. */
  settle(): void {
    if (this.ended || this.forwarded || this.endTime > 0) return;
    this.refused('client_closed', 499);
  }

  /**
   * The answer ended (GatewayCall.meter): what it was, on the call span; the span ends when the
   * usage row is final (`metered`), with this moment as its end. `content` holds the request body
   * when the endpoint records content.
   */
  answered(
    answered: TRouteEntry,
    result: TCallResult,
    attempts: number,
    cacheHit: boolean,
    content: Buffer | null,
  ): void {
    if (this.ended) return;
    this.closeAttempt(result);
    this.endTime = performance.now();
    const error =
      result.errorCode ??
      (result.clientGone ? 'client_closed' : result.status >= 400 ? String(result.status) : null);
    const model = this.model ?? responseModel(result.body);
    const attributes: Attributes = {
      'http.response.status_code': result.status,
      'air.attempts': attempts,
      'air.cache_hit': cacheHit,
    };
    if (answered.routeName !== this.routeName) attributes['air.route.answered'] = answered.routeName;
    if (this.host !== null) {
      attributes['air.upstream.host'] = this.host;
      attributes['gen_ai.provider.name'] = attributes['gen_ai.system'] = this.provider;
    }
    if (model !== null) attributes['gen_ai.response.model'] = model;
    if (error !== null) attributes['error.type'] = error;
    this.span.setAttributes(attributes);
    if (result.status >= 500) this.span.setStatus({ code: SpanStatusCode.ERROR });
    if (content !== null) this.recordContent(content, result);
  }

  /** The usage row is final: its tokens, and the span ends at the answer's end. */
  metered(row: TUsageRow): void {
    if (this.ended) return;
    this.ended = true;
    const attributes: Attributes = {};
    if (row.promptTokens !== null) attributes['gen_ai.usage.input_tokens'] = row.promptTokens;
    if (row.completionTokens !== null) attributes['gen_ai.usage.output_tokens'] = row.completionTokens;
    if (row.tokensEstimated) attributes['air.tokens_estimated'] = true;
    this.span.setAttributes(attributes);
    this.span.end(this.endTime > 0 ? this.endTime : undefined);
  }

  /** The prompt and the answer as two events, each cut at CONTENT_LIMIT characters. */
  private recordContent(body: Buffer, result: TCallResult): void {
    this.span.addEvent('gen_ai.content.prompt', contentOf('gen_ai.prompt', body));
    // A stream's generated text as the tap read it; a JSON answer as it came.
    const answer = result.stream ? result.stream.completion().text : result.body;
    if (answer) this.span.addEvent('gen_ai.content.completion', contentOf('gen_ai.completion', answer));
  }
}
