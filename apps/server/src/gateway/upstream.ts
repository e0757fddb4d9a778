import type { ServerResponse } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import { refusePrivateLookup } from '../lib/guarded-lookup';
import { writeGatewayError, type TGatewayErrorCode } from './errors';
import { StreamUsageTap } from './stream-usage';
import { isForwardedHeader, retryAfterMs } from './upstream-headers';
import type { TStreamReading } from './protocols';
import type { TAnswerTranslator } from './formats/types';
import { READ_ON_BYTES, READ_ON_MS, readingOnOf, type TReadingOn } from './read-on';

/**
 * The agent's `lookup`: every connection it opens is checked against what DNS answered at that
 * moment (IP literals skip DNS and are checked when the route is loaded). The same rule as
 * webhooks' (lib/guarded-lookup.ts).
 */
export const guardedLookup = refusePrivateLookup;

/**
 * One undici Agent for every upstream: it keeps a keep-alive pool per origin, so a call reuses an
 * open socket instead of paying a TCP (and TLS) handshake.
 */
export function createUpstreamAgent(allowPrivate: boolean): Agent {
  return new Agent({
    connections: 512,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 600_000,
    ...(allowPrivate ? {} : { connect: { lookup: guardedLookup as never } }),
  });
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Failures that, before the body was sent, cannot depend on it (DNS `EAI_*` too): they count for everyone (contract 6a). */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** Upstream answers worth another try (contract 6a): rate limited or failing. Anything else passes through. */
export function isRetryableStatus(status: number): boolean {
  // 529: Anthropic's "overloaded".
  return (
    status === 429 || status === 500 || status === 502 || status === 503 || status === 504 || status === 529
  );
}

/** Bytes of a JSON answer kept to read `usage` from; past this only the tail is kept. */
const USAGE_BODY_LIMIT = 1_048_576;

export interface TCallResult {
  status: number;
  /** The gateway's own code when it answered instead of the upstream. */
  errorCode: TGatewayErrorCode | null;
  /** Upstream time (dispatch to last byte), milliseconds; null when nothing was dispatched. */
  upstreamMs: number;
  /** The JSON answer's bytes when it may carry `usage` (2xx, JSON, not streamed). */
  body: Buffer | null;
  /** A streamed answer's usage (or what to estimate it from). */
  stream: StreamUsageTap | null;
  clientGone: boolean;
  /** The answer was a `text/event-stream`. */
  streamed: boolean;
  /** When (performance.now()) a stream's first body bytes went to the caller; absent or null otherwise. */
  firstByteAt?: number | null;
  /** Nothing was written: the failure (status or errorCode) is to be retried elsewhere. */
  retried?: boolean;
  /** The failed upstream's `Retry-After`, in milliseconds, or -1. */
  retryAfterMs?: number;
  /** A whole 200 JSON answer that may be cached: the headers it went out with (its body is `body`). */
  cacheHeaders?: string[] | null;
  /** A retried upstream answer, kept (up to 64 KiB) in case no other attempt can be made after all. */
  failedAnswer?: { status: number; headers: string[]; body: Buffer } | null;
  /** The call failed before its body was sent (refused, reset, DNS, connect timeout): its body cannot be the cause. */
  bodyIndependent?: boolean;
  /**
   * An MCP tool call (mcp-proxy.ts): its tool, its answer's bytes, whether it is free (no tool
   * ran: a JSON-RPC error, no answer) and how it failed (mcp-answer.ts), if it did.
   */
  mcp?: {
    tool: string;
    bytes: number;
    free: boolean;
    error: 'tool_error' | 'mcp_error' | 'no_answer' | null;
  } | null;
}

/** A translated answer is held whole to translate it: past this (far above any chat answer) it is cut. */
const TRANSLATED_ANSWER_LIMIT = 33_554_432;

/** Bytes of a discarded (retried) answer kept to pass through if nothing else answers. */
const FAILED_ANSWER_LIMIT = 65_536;

/** How a streamed call's answer is read (its protocol's events) and whether its usage chunk is taken out. */
export interface TStreamTap {
  stripUsage: boolean;
  reading: TStreamReading;
}

export interface TForward {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  requestId: string;
  /** A streamed request: read usage from the stream (as its protocol says), and take its usage chunk out when asked. */
  stream: TStreamTap | null;
  /** The call's id in the usage journal. */
  callId: number;
  /** Called with `callId` before the answer's first byte goes to the caller (its journal line is written). */
  beforeAnswer: (callId: number) => void;
  /** Routing headers for the caller (`x-air-route`, `x-air-attempts`…), name, value pairs. */
  airHeaders: readonly string[];
  /**
   * Routed calls: asked when the upstream fails before anything reached the caller (a retryable
   * status, a connection error, a timeout); true means another attempt follows, so nothing is
   * written and the answer's body is drained.
   */
  retry: (() => boolean) | null;
  /** Keep a whole 200 JSON answer (up to MAX_CACHED_ANSWER) for the answer cache. */
  cache: boolean;
  /** An upstream of another format (formats/): its answer is translated to the caller's; null for none. */
  translator?: TAnswerTranslator | null;
}

/**
 * One forwarded call, as an undici dispatch handler writing straight to the caller's socket: the
 * status and headers go out when the upstream's arrive, each body chunk as it arrives (a streamed
 * answer is never buffered), with back-pressure both ways. The caller going away aborts the
 * upstream request, except a 2xx stream under way, which is read on for its usage (READ_ON_MS).
 */
export class ProxyCall implements Dispatcher.DispatchHandler {
  private abortUpstream: ((error?: Error) => void) | null = null;
  private resumeUpstream: (() => void) | null = null;
  private status = 0;
  private chunks: Buffer[] | null = null;
  private collected = 0;
  private done = false;
  private clientGone = false;
  private streamed = false;
  private tap: StreamUsageTap | null = null;
  /** A failed answer being drained for a retry: nothing of it reaches the caller. */
  private discard = false;
  private retryAfter = -1;
  private failedHeaders: string[] | null = null;
  private failedChunks: Buffer[] | null = null;
  private failedBytes = 0;
  private cacheHeaders: string[] | null = null;
  private bodySent = false;
  private bodyIndependent = false;
  /** A translated answer that is not a 2xx stream: held whole, translated at its end. */
  private whole: Buffer[] | null = null;
  private wholeBytes = 0;
  /** A translated answer's headers, written when its body is (held whole) or at once (a stream). */
  private translatedHead: string[] | null = null;
  /** The agent sending the call; its calls reading on (read-on.ts) once the caller left. */
  private agent: Agent | null = null;
  private reading: TReadingOn | null = null;
  private readOnBytes = 0;
  private readOnTimer: NodeJS.Timeout | null = null;
  private readonly started = performance.now();
  /** A stream's first body bytes to the caller (time to first token, decision 057). */
  private firstByteAt: number | null = null;

  constructor(
    private readonly res: ServerResponse,
    private readonly forward: TForward,
    private readonly onDone: (result: TCallResult) => void,
  ) {
    res.on('close', this.onClientClose);
  }

  private get requestId(): string {
    return this.forward.requestId;
  }

  static start(agent: Agent, res: ServerResponse, forward: TForward, onDone: (result: TCallResult) => void) {
    const call = new ProxyCall(res, forward, onDone);
    call.agent = agent;
    agent.dispatch(
      {
        origin: forward.origin,
        path: forward.path,
        method: 'POST',
        headers: forward.headers,
        body: forward.body,
        headersTimeout: forward.timeoutMs,
        bodyTimeout: forward.timeoutMs,
      },
      call,
    );
    return call;
  }

  private readonly onClientClose = () => {
    if (this.done || this.res.writableFinished) return;
    this.clientGone = true;
    // A 2xx stream under way has generated part of its answer: read on for what it cost.
    if (this.tap !== null && !this.tap.hasUsage) return this.readOn();
    this.abort();
  };

  /** Aborts the upstream request; the call ends in onError. */
  readonly abort = () => {
    const abort = this.abortUpstream;
    if (abort) abort(new Error('client closed the connection'));
  };

  /** The caller left a stream: the upstream is read on, bounded in time (and bytes, in onData). */
  private readOn(): void {
    const reading = this.agent ? readingOnOf(this.agent) : null;
    // The gateway is closing (the caller's connection was cut): metered now, as it stands.
    if (!reading || reading.closing) return this.abort();
    this.reading = reading;
    reading.calls.add(this);
    this.readOnTimer = setTimeout(this.abort, READ_ON_MS);
    this.readOnTimer.unref();
    // The upstream may be paused for the caller's socket to drain, which will not happen now.
    this.res.off('drain', this.onDrain);
    const resume = this.resumeUpstream;
    if (resume) resume();
  }

  /** A chunk read after the caller left: enough once the usage came or past the byte bound. */
  private readOnChunk(bytes: number): boolean {
    this.readOnBytes += bytes;
    if (this.tap!.hasUsage || this.readOnBytes > READ_ON_BYTES) this.abort();
    return true;
  }

  private readonly onDrain = () => {
    const resume = this.resumeUpstream;
    if (resume) resume();
  };

  onBodySent(): void {
    this.bodySent = true;
  }

  onConnect(abort: (error?: Error) => void): void {
    this.abortUpstream = abort;
    if (this.clientGone) abort(new Error('client closed the connection'));
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // 1xx: informational, the final answer follows
    this.status = statusCode;
    this.resumeUpstream = resume;
    const retry = this.forward.retry;
    if (retry !== null && isRetryableStatus(statusCode) && !this.clientGone && retry()) {
      this.discard = true;
      const kept: string[] = [];
      for (let i = 0; i < rawHeaders.length; i += 2) {
        const lower = rawHeaders[i]!.toString('latin1').toLowerCase();
        if (lower === 'retry-after') this.retryAfter = retryAfterMs(rawHeaders[i + 1]!.toString('latin1'));
        if (isForwardedHeader(lower) && lower !== 'content-length')
          kept.push(rawHeaders[i]!.toString('latin1'), rawHeaders[i + 1]!.toString('latin1'));
      }
      // A translated answer's error is rewritten in the caller's shape: its type is JSON.
      this.failedHeaders = this.forward.translator ? ['content-type', 'application/json'] : kept;
      this.failedChunks = [];
      return true;
    }
    if (this.forward.translator) return this.translatedHeaders(statusCode, rawHeaders);
    const headers: string[] = [];
    let json = false;
    let eventStream = false;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!.toString('latin1');
      const lower = name.toLowerCase();
      if (!isForwardedHeader(lower)) continue;
      const value = rawHeaders[i + 1]!.toString('latin1');
      if (lower === 'content-type') {
        json = value.includes('json');
        eventStream = value.includes('event-stream');
      }
      headers.push(name, value);
    }
    if (this.forward.cache && statusCode === 200 && json && !eventStream) this.cacheHeaders = headers.slice();
    headers.push('x-request-id', this.requestId, 'x-content-type-options', 'nosniff');
    const air = this.forward.airHeaders;
    for (let i = 0; i < air.length; i++) headers.push(air[i]!);
    this.streamed = eventStream;
    if (json && !eventStream && statusCode < 300) this.chunks = [];
    if (eventStream && this.forward.stream && statusCode < 300)
      this.tap = new StreamUsageTap(this.forward.stream.stripUsage, this.forward.stream.reading);
    this.forward.beforeAnswer(this.forward.callId);
    if (!this.clientGone) this.res.writeHead(statusCode, headers);
    return true;
  }

  /**
   * The headers of a translated answer: a 2xx event stream goes out as one (translated event by
   * event), anything else is held whole and translated at its end (so its length is not known yet).
   */
  private translatedHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    const headers: string[] = [];
    let eventStream = false;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const lower = rawHeaders[i]!.toString('latin1').toLowerCase();
      if (lower === 'content-type')
        eventStream = rawHeaders[i + 1]!.toString('latin1').includes('event-stream');
      else if (lower === 'retry-after' || lower.startsWith('x-ratelimit-'))
        headers.push(lower, rawHeaders[i + 1]!.toString('latin1'));
    }
    eventStream &&= statusCode < 300;
    this.streamed = eventStream;
    if (eventStream) {
      headers.push('content-type', 'text/event-stream; charset=utf-8', 'cache-control', 'no-cache');
      if (this.forward.stream)
        this.tap = new StreamUsageTap(this.forward.stream.stripUsage, this.forward.stream.reading);
    } else {
      this.whole = [];
      headers.push('content-type', 'application/json');
    }
    this.translatedHead = headers;
    if (!eventStream) return true;
    this.writeHead(statusCode, headers);
    return true;
  }

  private writeHead(statusCode: number, headers: string[]): void {
    if (this.forward.cache && statusCode === 200 && !this.streamed) this.cacheHeaders = headers.slice();
    headers.push('x-request-id', this.requestId, 'x-content-type-options', 'nosniff');
    const air = this.forward.airHeaders;
    for (let i = 0; i < air.length; i++) headers.push(air[i]!);
    this.forward.beforeAnswer(this.forward.callId);
    if (!this.clientGone) this.res.writeHead(statusCode, headers);
  }

  onData(chunk: Buffer): boolean {
    if (this.whole !== null) {
      this.wholeBytes += chunk.length;
      if (this.wholeBytes > TRANSLATED_ANSWER_LIMIT) {
        this.abort();
        return false;
      }
      this.whole.push(chunk);
      return true;
    }
    if (this.streamed && this.forward.translator) {
      const bytes = chunk.length;
      chunk = this.forward.translator.stream(chunk);
      if (this.clientGone && this.tap) {
        this.tap.push(chunk);
        return this.readOnChunk(bytes);
      }
      if (chunk.length === 0) return true;
    }
    if (this.discard) {
      const kept = this.failedChunks;
      if (kept) {
        this.failedBytes += chunk.length;
        if (this.failedBytes > FAILED_ANSWER_LIMIT) this.failedChunks = null;
        else kept.push(chunk);
      }
      return true;
    }
    if (this.tap) {
      const bytes = chunk.length;
      chunk = this.tap.push(chunk);
      if (this.clientGone) return this.readOnChunk(bytes);
      if (chunk.length === 0) return true;
    }
    if (this.chunks) {
      this.collected += chunk.length;
      this.chunks.push(chunk);
      if (this.collected > USAGE_BODY_LIMIT) {
        this.cacheHeaders = null;
        // `usage` closes an OpenAI answer: past the limit keep only the last two chunks.
        this.chunks = this.chunks.slice(-2);
        this.collected = this.chunks[0]!.length + (this.chunks[1]?.length ?? 0);
      }
    }
    if (this.clientGone) return true;
    if (this.firstByteAt === null && this.streamed && chunk.length > 0) this.firstByteAt = performance.now();
    if (this.res.write(chunk)) return true;
    this.res.once('drain', this.onDrain);
    return false;
  }

  onComplete(): void {
    if (this.discard) return this.finish(this.status, null, null, true);
    if (this.whole !== null) return this.completeWhole();
    if (this.streamed && this.forward.translator) {
      let last = this.forward.translator.streamEnd();
      if (this.tap) last = this.tap.push(last);
      if (!this.clientGone && last.length > 0) this.res.write(last);
    }
    const rest = this.tap?.end();
    if (!this.clientGone) {
      if (rest && rest.length > 0) this.res.write(rest);
      this.res.end();
    }
    const chunks = this.chunks;
    this.finish(
      this.status,
      null,
      chunks === null ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
    );
  }

  /** A translated answer held whole: written in the caller's shape, its usage read from that. */
  private completeWhole(): void {
    const raw = this.whole!;
    this.whole = null;
    const answer = this.forward.translator!.whole(
      this.status,
      raw.length === 1 ? raw[0]! : Buffer.concat(raw),
    );
    const headers = this.translatedHead!;
    headers.push('content-length', String(answer.body.length));
    if (answer.status !== this.status) this.cacheHeaders = null;
    this.writeHead(answer.status, headers);
    if (!this.clientGone) this.res.end(answer.body);
    this.finish(answer.status, null, answer.status < 300 ? answer.body : null);
  }

  onError(error: Error): void {
    if (this.done) return;
    if (this.clientGone) return this.finish(499, null, null);
    const code = (error as { code?: string }).code ?? '';
    this.bodyIndependent =
      !this.bodySent && this.status === 0 && (CONNECT_CODES.has(code) || code.startsWith('EAI_'));
    const errorCode: TGatewayErrorCode = TIMEOUT_CODES.has(code)
      ? 'upstream_timeout'
      : 'upstream_unreachable';
    // A failure while draining a discarded answer, or before any answer: retried when routed.
    if (this.discard) return this.finish(this.status, null, null, true);
    const retry = this.forward.retry;
    if (!this.res.headersSent && retry !== null && retry()) return this.finish(0, errorCode, null, true);
    if (this.res.headersSent) {
      // The upstream failed mid-answer: the caller sees a cut connection, the only honest signal left.
      this.res.destroy();
      return this.finish(this.status, errorCode, null);
    }
    const status = writeGatewayError(this.res, errorCode, this.requestId, undefined, this.forward.airHeaders);
    this.finish(status, errorCode, null);
  }

  private finish(
    status: number,
    errorCode: TGatewayErrorCode | null,
    body: Buffer | null,
    retried = false,
  ): void {
    if (this.done) return;
    this.done = true;
    this.res.off('close', this.onClientClose);
    if (this.reading) {
      clearTimeout(this.readOnTimer!);
      this.reading.calls.delete(this);
    }
    this.onDone({
      status: this.clientGone ? 499 : status,
      errorCode,
      upstreamMs: performance.now() - this.started,
      body,
      stream: this.tap,
      clientGone: this.clientGone,
      streamed: this.streamed,
      firstByteAt: this.firstByteAt,
      retried: retried && !this.clientGone,
      retryAfterMs: this.retryAfter,
      cacheHeaders: this.cacheHeaders,
      bodyIndependent: this.bodyIndependent,
      failedAnswer:
        this.discard && this.failedHeaders && this.failedChunks
          ? {
              status: this.status,
              headers: this.failedHeaders,
              body: this.forward.translator
                ? this.forward.translator.whole(this.status, Buffer.concat(this.failedChunks)).body
                : Buffer.concat(this.failedChunks),
            }
          : null,
    });
  }
}
