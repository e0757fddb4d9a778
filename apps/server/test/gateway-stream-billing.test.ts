import { eq } from 'drizzle-orm';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { once } from 'node:events';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TUsageList } from '@air/shared/schemas/usage';
import { usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { READ_ON_BYTES } from '../src/gateway/read-on';
import { unbilledSpendBefore } from '../src/modules/usage/service';
import { CARDS, cardToken, newOwner, send } from './billing-helpers';
import { sseChunk } from './gateway-fixtures';
import { createTestApp, type TTestApp } from './helpers';
import { insertKey } from './gateway-fixtures';
import { sharePricedRoute } from './marketplace-helpers';

/**
 * Contract 5a: a streamed call the caller or the upstream ends early costs what was generated up
 * to then — the upstream's usage when it comes in time, else the prompt and the streamed
 * completion counted with the tokenizer, marked as estimated.
 */

/** Micros: 1 cent a call, 5.00 per million prompt tokens, 10.00 per million completion tokens. */
const PRICE = { per_call: 10_000, per_1m_input_tokens: 5_000_000, per_1m_output_tokens: 10_000_000 };
const PROMPT = 'Hello';
const CHUNKS = Array.from({ length: 20 }, (_, i) => ` word${i}`);
const DELIVERED = CHUNKS.join('');
/** What the upstream of /late reports in its usage chunk. */
const LATE_USAGE = { prompt_tokens: 13, completion_tokens: 40, total_tokens: 53 };

/** What a call costs, in picos (1e-12 of the main unit). */
function costPicos(prompt: number, completion: number): number {
  return (
    PRICE.per_call * 1_000_000 + prompt * PRICE.per_1m_input_tokens + completion * PRICE.per_1m_output_tokens
  );
}

/** Picos as a report or an invoice shows them: cents, rounded half up. */
function cents(picos: number): number {
  return Math.floor((picos + 5_000_000_000) / 10_000_000_000);
}

function usageChunk(): string {
  return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [], usage: LATE_USAGE })}\n\n`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the upstream saw of one request: when its connection closed, and the bytes it wrote. */
interface TSeen {
  path: string;
  closedAt: Promise<number>;
  written: number;
}

/**
 * An upstream streaming CHUNKS (10 ms apart), then, by path:
 * - `/late`: after 300 ms its usage chunk, then [DONE];
 * - `/nousage`: after 300 ms [DONE], never any usage;
 * - `/cut`: after 5 chunks it cuts the connection;
 * - `/forever`: content chunks without end, as fast as it is read.
 */
async function startStreamingUpstream() {
  const seen: TSeen[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const entry: TSeen = {
        path: req.url ?? '',
        closedAt: new Promise((resolve) => res.on('close', () => resolve(performance.now()))),
        written: 0,
      };
      seen.push(entry);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void play(entry, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function play(entry: TSeen, res: ServerResponse): Promise<void> {
  const write = (text: string) => {
    entry.written += Buffer.byteLength(text);
    return res.write(text);
  };
  const count = entry.path === '/cut' ? 5 : CHUNKS.length;
  for (let i = 0; i < count && !res.destroyed; i++) {
    write(sseChunk(CHUNKS[i]!));
    await sleep(10);
  }
  if (res.destroyed) return;
  if (entry.path === '/cut') return void res.socket?.destroy();
  if (entry.path === '/forever') {
    for (let i = 0; !res.destroyed; i++) {
      // Read as fast as the gateway reads it (a wait for 'drain' would never end once it is cut).
      if (!write(sseChunk(` more${i}`))) while (res.writableNeedDrain && !res.destroyed) await sleep(1);
    }
    return;
  }
  await sleep(300);
  if (res.destroyed) return;
  if (entry.path === '/late') write(usageChunk());
  res.end('data: [DONE]\n\n');
}

/**
 * A streamed call over HTTP that leaves (destroys its connection) once it has read `leaveAfter`
 * content chunks; or reads to the end (or the cut) when null. Answers the status and what it read.
 */
function streamCall(
  base: string,
  key: string,
  routeName: string,
  leaveAfter: number | null,
): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({
    model: routeName,
    stream: true,
    messages: [{ role: 'user', content: PROMPT }],
  });
  return new Promise((resolve, reject) => {
    const req = request(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
    req.on('response', (res) => {
      let text = '';
      const done = () => resolve({ status: res.statusCode ?? 0, text });
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (leaveAfter !== null && text.split('"content"').length - 1 >= leaveAfter) {
          req.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    req.on('error', (error) => (leaveAfter === null ? reject(error) : undefined));
    req.end(body);
  });
}

const variants: [string, string | undefined][] = [['in memory', undefined]];
if (process.env.TEST_REDIS_URL) variants.push(['in Redis', process.env.TEST_REDIS_URL]);

describe.each(variants)('a streamed answer is paid for (spend counted %s)', (_name, redisUrl) => {
  let t: TTestApp;
  let base: string;
  let upstream: Awaited<ReturnType<typeof startStreamingUpstream>>;
  let seq = 0;

  beforeAll(async () => {
    upstream = await startStreamingUpstream();
    t = await createTestApp({ upstreamAllowPrivate: true, redisUrl });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await t?.close();
    upstream?.close();
  });

  /** A caller with a card (and, when given, a spend limit) and a key, to a priced shared route. */
  async function market(path: string, spendLimit: number | null = null) {
    const provider = await newOwner(t.app, 'free');
    const caller = await newOwner(t.app, 'free');
    const token = await cardToken(t.app, caller.headers, CARDS.ok);
    expect((await send(t.app, caller.headers, 'PATCH', '/api/account/card', { token })).statusCode).toBe(200);
    if (spendLimit !== null) {
      const limit = { marketplace_spend_limit: spendLimit };
      expect((await send(t.app, caller.headers, 'PATCH', '/api/account/spend-limit', limit)).statusCode).toBe(
        200,
      );
    }
    const routeName = `streampay${process.pid}/r${seq++}-${redisUrl ? 'redis' : 'memory'}`;
    await sharePricedRoute(t.app, provider, routeName, `${upstream.url}${path}`, PRICE);
    const key = await insertKey(t.db, t.config.secret, caller.accountId);
    return { caller, routeName, key: key.raw };
  }

  /** The caller's one usage row, once the meter has it. */
  async function storedRow(accountId: string) {
    let rows: (typeof usageEvents.$inferSelect)[] = [];
    await expect
      .poll(
        async () => {
          await gatewayStateOf(t.app).meter.flush();
          rows = await t.db.select().from(usageEvents).where(eq(usageEvents.callerAccountId, accountId));
          return rows.length;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(1);
    return rows[0]!;
  }

  /** The caller's spend as its usage report shows it (minor units), and as its invoice would bill it. */
  async function spend(caller: { accountId: string; headers: Record<string, string> }) {
    const usage = await t.app.inject({ url: '/api/account/usage', headers: caller.headers });
    expect(usage.statusCode, usage.body).toBe(200);
    const reported = (usage.json().data as TUsageList).find((row) => row.label === 'spend')?.total;
    return { reported, billed: await unbilledSpendBefore(t.db, caller.accountId) };
  }

  it('(a) a caller who leaves after the 20 chunks pays the tokens of the usage that came after', async () => {
    const { caller, routeName, key } = await market('/late');
    const answer = await streamCall(base, key, routeName, CHUNKS.length);
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('[DONE]');
    const row = await storedRow(caller.accountId);
    expect(row).toMatchObject({
      status: 499,
      errorCode: 'client_closed',
      streamed: true,
      promptTokens: LATE_USAGE.prompt_tokens,
      completionTokens: LATE_USAGE.completion_tokens,
      tokensEstimated: false,
    });
    const cost = costPicos(LATE_USAGE.prompt_tokens, LATE_USAGE.completion_tokens);
    expect(row.costPicos).toBe(cost);
    expect(await spend(caller)).toEqual({ reported: cents(cost), billed: cents(cost) });
  });

  it('(b) with no usage from the upstream, the prompt and the streamed text are counted with the tokenizer', async () => {
    // A spend limit well above the cost: its settlement must charge the same counted cost.
    const { caller, routeName, key } = await market('/nousage', 100_000);
    await streamCall(base, key, routeName, CHUNKS.length);
    const row = await storedRow(caller.accountId);
    const prompt = countTokens(PROMPT);
    const completion = countTokens(DELIVERED);
    // The tokenizer's counts, not a length rule's (4 characters a token).
    expect([prompt, completion]).not.toEqual([Math.ceil(PROMPT.length / 4), Math.ceil(DELIVERED.length / 4)]);
    expect(row).toMatchObject({
      status: 499,
      errorCode: 'client_closed',
      promptTokens: prompt,
      completionTokens: completion,
      tokensEstimated: true,
    });
    const cost = costPicos(prompt, completion);
    expect(row.costPicos).toBe(cost);
    expect(await spend(caller)).toEqual({ reported: cents(cost), billed: cents(cost) });
  });

  it('(c) a stream the upstream cuts is charged for the part delivered, estimated', async () => {
    const { caller, routeName, key } = await market('/cut');
    const answer = await streamCall(base, key, routeName, null);
    expect(answer.status).toBe(200);
    const delivered = CHUNKS.slice(0, 5).join('');
    expect(answer.text.split('"content"').length - 1).toBe(5);
    const row = await storedRow(caller.accountId);
    const prompt = countTokens(PROMPT);
    const completion = countTokens(delivered);
    expect(completion).not.toBe(Math.ceil(delivered.length / 4));
    expect(row).toMatchObject({
      status: 200,
      errorCode: 'upstream_unreachable',
      promptTokens: prompt,
      completionTokens: completion,
      tokensEstimated: true,
    });
    const cost = costPicos(prompt, completion);
    expect(row.costPicos).toBe(cost);
    expect(await spend(caller)).toEqual({ reported: cents(cost), billed: cents(cost) });
  });

  it('(d) an upstream that never ends is read on only up to the bound after the caller left, and the call is metered', async () => {
    const { caller, routeName, key } = await market('/forever');
    const before = upstream.seen.length;
    await streamCall(base, key, routeName, CHUNKS.length);
    const left = performance.now();
    await expect.poll(() => upstream.seen.length).toBeGreaterThan(before);
    const seen = upstream.seen[before]!;
    const writtenWhenLeft = seen.written;
    // Closed by the gateway well inside the time bound: the byte bound ended it.
    const closedAt = await seen.closedAt;
    expect(closedAt - left).toBeLessThan(10_000);
    // It was read on: past the bound's bytes after the caller left (what was in flight when it left counts too).
    expect(seen.written - writtenWhenLeft).toBeGreaterThan(READ_ON_BYTES / 2);
    expect(seen.written - writtenWhenLeft).toBeLessThan(READ_ON_BYTES * 4);
    const row = await storedRow(caller.accountId);
    expect(row).toMatchObject({ status: 499, errorCode: 'client_closed', tokensEstimated: true });
    // The streamed content counted: the 20 chunks and what followed until the bound.
    expect(row.completionTokens!).toBeGreaterThan(countTokens(DELIVERED) * 10);
    expect(row.promptTokens).toBe(countTokens(PROMPT));
    expect(row.costPicos).toBe(costPicos(row.promptTokens!, row.completionTokens!));
  });
});
