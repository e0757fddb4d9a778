import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from './helpers';
import {
  COMPLETION,
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

beforeAll(async () => {
  upstream = await startMockUpstream();
  t = await createTestApp({ upstreamAllowPrivate: true });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const account = await insertAccount(t.db, 'SDK');
  const key = await insertKey(t.db, t.config.secret, account.id);
  await insertEndpoint(t.db, t.config.secret, account.id, { routeName, routeEndpoint: `${upstream.url}/ok` });
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
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello world');
  });

  it('lists the models it may call', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual([routeName]);
  });

  it('surfaces gateway errors as the SDK error types', async () => {
    const error = await client.chat.completions
      .create({ model: 'nobody/nothing', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('route_not_found');
  });
});
