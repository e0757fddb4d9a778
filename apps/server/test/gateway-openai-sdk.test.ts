import { desc, eq } from 'drizzle-orm';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiEndpoints, usageEvents } from '../src/db/schema';
import { refusedUrl } from './routing-fixtures';
import { gatewayStateOf } from '../src/gateway/state';
import { createTestApp, type TTestApp } from './helpers';
import {
  COMPLETION,
  STREAM_USAGE,
  insertAccount,
  insertEndpoint,
  insertKey,
  startMockUpstream,
  type TMockUpstream,
} from './gateway-fixtures';

let t: TTestApp;
let upstream: TMockUpstream;
let client: OpenAI;
const routeName = 'mock/sdk';
const silentRoute = 'mock/sdk-nousage';
const routedRoute = 'mock/sdk-routed';
let endpointId = '';
let silentEndpointId = '';

/** The newest usage row of one endpoint, after the pending batch is written. */
async function lastUsage(endpoint: string) {
  await gatewayStateOf(t.app).meter.flush();
  const [row] = await t.db
    .select()
    .from(usageEvents)
    .where(eq(usageEvents.endpointId, endpoint))
    .orderBy(desc(usageEvents.id))
    .limit(1);
  return row!;
}

beforeAll(async () => {
  upstream = await startMockUpstream();
  t = await createTestApp({ upstreamAllowPrivate: true });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const account = await insertAccount(t.db, 'SDK');
  const key = await insertKey(t.db, t.config.secret, account.id);
  endpointId = (
    await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName,
      routeEndpoint: `${upstream.url}/ok`,
    })
  ).id;
  silentEndpointId = (
    await insertEndpoint(t.db, t.config.secret, account.id, {
      routeName: silentRoute,
      routeEndpoint: `${upstream.url}/nousage`,
    })
  ).id;
  // A routed endpoint whose first upstream is down (connections refused), the second healthy.
  const routed = await insertEndpoint(t.db, t.config.secret, account.id, {
    routeName: routedRoute,
    routeEndpoint: await refusedUrl(),
  });
  await t.db
    .update(aiEndpoints)
    .set({
      routing: {
        upstreams: [
          { url: routed.routeEndpoint, weight: 100 },
          { url: `${upstream.url}/ok`, weight: 1 },
        ],
        retry: { attempts: 2, backoff_ms: 0 },
      },
    })
    .where(eq(aiEndpoints.id, routed.id));
  // Exactly what the dashboard's OpenAI-compatibility snippet tells a developer to do.
  client = new OpenAI({ apiKey: key.raw, baseURL: `${base}/api/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

describe('the official openai SDK as a gateway client', () => {
  it('creates a completion', async () => {
    const completion = await client.chat.completions.create({
      model: routeName,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]!.message.content).toBe(COMPLETION.choices[0]!.message.content);
    expect(completion.usage?.total_tokens).toBe(18);
  });

  it('streams a completion', async () => {
    const stream = await client.chat.completions.create({
      model: routeName,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    let text = '';
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(text).toBe('Hello world');
    // The gateway asked the upstream for usage, but this caller did not: no usage chunk reaches it.
    expect(JSON.parse(upstream.seen.at(-1)!.body.toString()).stream_options).toEqual({ include_usage: true });
    expect(chunks.every((chunk) => chunk.choices.length > 0 && !chunk.usage)).toBe(true);
    const row = await lastUsage(endpointId);
    expect([row.promptTokens, row.completionTokens, row.tokensEstimated]).toEqual([
      STREAM_USAGE.prompt_tokens,
      STREAM_USAGE.completion_tokens,
      false,
    ]);
  });

  it('passes the usage chunk to a caller who asked for it', async () => {
    const stream = await client.chat.completions.create({
      model: routeName,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toEqual(STREAM_USAGE);
    const row = await lastUsage(endpointId);
    expect([row.promptTokens, row.completionTokens, row.tokensEstimated]).toEqual([9, 2, false]);
  });

  it('estimates the tokens of a stream that carries no usage, and marks them as estimated', async () => {
    const stream = await client.chat.completions.create({
      model: silentRoute,
      messages: [{ role: 'user', content: 'Say hello to the whole world' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello world');
    const row = await lastUsage(silentEndpointId);
    // Counted with the tokenizer (cl100k_base), not guessed from characters (28 and 11: 7 and 3).
    expect([row.promptTokens, row.completionTokens, row.tokensEstimated]).toEqual([
      countTokens('Say hello to the whole world'),
      countTokens('Hello world'),
      true,
    ]);
    expect([row.promptTokens, row.completionTokens]).toEqual([6, 2]);
  });

  it('keeps working unchanged, streamed and not, against a routed endpoint whose first upstream is down', async () => {
    for (let i = 0; i < 5; i++) {
      const completion = await client.chat.completions.create({
        model: routedRoute,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(completion.choices[0]!.message.content).toBe(COMPLETION.choices[0]!.message.content);
      const stream = await client.chat.completions.create({
        model: routedRoute,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('Hello world');
    }
  });

  it('lists the models it may call', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual([routeName, silentRoute, routedRoute].sort());
  });

  it('surfaces gateway errors as the SDK error types', async () => {
    const error = await client.chat.completions
      .create({ model: 'nobody/nothing', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('route_not_found');
  });
});
