import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { encryptSecret, randomBase62, sha256 } from '../src/lib/crypto';
import { accounts, aiEndpoints, apiKeys } from '../src/db/schema';
import type { TDb } from '../src/db/client';

/** What the mock upstream saw of one request. */
export interface TSeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** true when the connection closed before the answer ended (the gateway aborted it), else false. */
  closedEarly: Promise<boolean>;
}

export const COMPLETION = {
  id: 'chatcmpl-mock',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'mock-model',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'Hello from the mock.' }, finish_reason: 'stop' },
  ],
  usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
};

/** What the mock's streams report in their usage chunk (when asked for it). */
export const STREAM_USAGE = { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 };

/** A content chunk; with `withUsage` it carries `usage: null`, as OpenAI's do when usage was asked. */
export function sseChunk(content: string, withUsage = false): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'mock-model',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
    ...(withUsage ? { usage: null } : {}),
  })}\n\n`;
}

/** OpenAI's last chunk when `stream_options.include_usage` is set: no choices, only usage. */
export function sseUsageChunk(): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'mock-model',
    choices: [],
    usage: STREAM_USAGE,
  })}\n\n`;
}

/**
 * An OpenAI-compatible upstream on loopback. Paths choose the behaviour:
 * - `/ok`: the JSON completion (or SSE when the body asks `stream: true`, ending with a usage
 *   chunk when it asks `stream_options.include_usage`, the last chunk cut in two network writes)
 * - `/nousage`: like `/ok`, but its streams never carry usage
 * - `/held`: SSE; sends the first chunk, then holds until `release()`
 * - `/slow`: answers after 5 s (for timeouts)
 * - `/error`: 429 with an upstream error body
 * Every request is recorded with whether its connection closed before its answer ended.
 */
export async function startMockUpstream() {
  const seen: TSeenRequest[] = [];
  let releaseHeld: () => void = () => {};
  let held = new Promise<void>((resolve) => (releaseHeld = resolve));

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const closedEarly = new Promise<boolean>((resolve) =>
        res.on('close', () => resolve(!res.writableFinished)),
      );
      seen.push({ path: req.url ?? '', headers: req.headers, body, closedEarly });
      const url = req.url ?? '';
      let wantsStream = false;
      let wantsUsage = false;
      try {
        const parsed = JSON.parse(body.toString()) as {
          stream?: boolean;
          stream_options?: { include_usage?: boolean };
        };
        wantsStream = parsed.stream === true;
        wantsUsage = parsed.stream_options?.include_usage === true && !url.startsWith('/nousage');
      } catch {
        // not JSON: answered as non-streamed
      }
      if (url.startsWith('/error')) {
        res.writeHead(429, { 'content-type': 'application/json', 'x-upstream': 'mock' });
        res.end(
          JSON.stringify({
            error: { message: 'upstream says slow down', type: 'requests', code: 'mock_limit' },
          }),
        );
        return;
      }
      if (url.startsWith('/slow')) {
        const timer = setTimeout(() => res.end(JSON.stringify(COMPLETION)), 5000);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      if (url.startsWith('/held')) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(sseChunk('first'));
        void held.then(() => {
          if (res.destroyed) return;
          res.write(sseChunk('second'));
          res.end('data: [DONE]\n\n');
        });
        return;
      }
      if (wantsStream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(sseChunk('Hello', wantsUsage));
        res.write(sseChunk(' world', wantsUsage));
        if (wantsUsage) {
          // Cut mid-event, so the gateway must join network chunks to read (or drop) it.
          const last = sseUsageChunk();
          res.write(last.slice(0, 40));
          setTimeout(() => {
            res.write(last.slice(40));
            res.end('data: [DONE]\n\n');
          }, 20);
          return;
        }
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-upstream': 'mock',
        'openai-processing-ms': '1',
        'x-ratelimit-remaining-requests': '99',
        'set-cookie': 'upstream=1',
      });
      res.end(JSON.stringify(COMPLETION));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    release() {
      releaseHeld();
      held = new Promise<void>((resolve) => (releaseHeld = resolve));
    },
    async close() {
      releaseHeld();
      server.closeAllConnections();
      server.close();
    },
  };
}

export type TMockUpstream = Awaited<ReturnType<typeof startMockUpstream>>;

/** A plans file with tiny limits so 429 and 402 are reachable in a test. */
export function writeTestPlans(dir: string): string {
  const file = path.join(dir, 'plans.json');
  const base = { currency: 'usd', currency_symbol: '$', interval: 'month', type: 'flat' };
  writeFileSync(
    file,
    JSON.stringify({
      plans: [
        {
          ...base,
          id: 'free',
          name: 'Free',
          price: 0,
          quota_calls_month: 1000,
          rate_limit_per_minute: 1000,
          sort: 0,
        },
        {
          ...base,
          id: 'ratelimited',
          name: 'R',
          price: 100,
          quota_calls_month: 1000,
          rate_limit_per_minute: 2,
          sort: 1,
        },
        {
          ...base,
          id: 'tinyquota',
          name: 'Q',
          price: 100,
          quota_calls_month: 2,
          rate_limit_per_minute: 1000,
          sort: 2,
        },
        {
          ...base,
          id: 'tokenlimited',
          name: 'T',
          price: 100,
          quota_calls_month: 100_000,
          rate_limit_per_minute: 1000,
          tokens_per_minute: 100,
          sort: 3,
        },
      ],
    }),
  );
  return file;
}

export async function insertAccount(db: TDb, name: string, planId: string | null = 'free') {
  const [row] = await db.insert(accounts).values({ name, planId }).returning();
  return row!;
}

export async function insertKey(
  db: TDb,
  secret: string,
  accountId: string,
  scope: string[] = ['gateway.invoke'],
): Promise<{ id: string; raw: string; hash: string }> {
  const raw = `air_${randomBase62(40)}`;
  const hash = sha256(raw);
  const [row] = await db
    .insert(apiKeys)
    .values({
      accountId,
      name: 'test key',
      keyHash: hash,
      keyEnc: encryptSecret(secret, raw),
      keyPrefix: raw.slice(0, 8),
      scope,
    })
    .returning();
  return { id: row!.id, raw, hash };
}

export async function insertEndpoint(
  db: TDb,
  secret: string,
  accountId: string,
  values: {
    routeName: string;
    routeEndpoint: string;
    isPrivate?: boolean;
    isShared?: boolean;
    isActive?: boolean;
    upstreamModel?: string;
    upstreamTimeoutMs?: number;
    upstreamHeaders?: Record<string, string>;
  },
) {
  const [row] = await db
    .insert(aiEndpoints)
    .values({
      accountId,
      name: values.routeName,
      routeName: values.routeName,
      routeEndpoint: values.routeEndpoint,
      routeType: 'model',
      isPrivate: values.isPrivate ?? true,
      isShared: values.isShared ?? false,
      isActive: values.isActive ?? true,
      upstreamModel: values.upstreamModel ?? null,
      upstreamTimeoutMs: values.upstreamTimeoutMs ?? null,
      upstreamHeadersEnc: values.upstreamHeaders
        ? encryptSecret(secret, JSON.stringify(values.upstreamHeaders))
        : null,
    })
    .returning();
  return row!;
}

/**
 * The per-key rate limit counts per clock minute: a test that fills one minute's window starts
 * well inside a minute (waiting for the next one past second 45), so its calls cannot straddle two
 * windows on a slow machine.
 */
export async function startWellInsideAMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 45) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}
