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

export function sseChunk(content: string): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'mock-model',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;
}

/**
 * An OpenAI-compatible upstream on loopback. Paths choose the behaviour:
 * - `/ok`: the JSON completion (or SSE when the body asks `stream: true`)
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
      try {
        wantsStream = (JSON.parse(body.toString()) as { stream?: boolean }).stream === true;
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
        res.write(sseChunk('Hello'));
        res.write(sseChunk(' world'));
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'mock' });
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
