import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAnswer } from './playground-stream';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('readAnswer', () => {
  it("reads the gateway's x-air-route, x-air-attempts and x-air-cache", async () => {
    const answer = {
      choices: [{ message: { content: 'hi' } }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify(answer), {
            headers: {
              'content-type': 'application/json',
              'x-air-route': 'acme/backup',
              'x-air-attempts': '3',
              'x-air-cache': 'miss',
            },
          }),
      ),
    );
    const result = await readAnswer({
      url: 'http://air.test/api/v1/chat/completions',
      key: 'air_x',
      routeName: 'acme/echo',
      body: { model: 'acme/echo', messages: [] },
      signal: new AbortController().signal,
      onUpdate: () => {},
    });
    expect(result).toMatchObject({ text: 'hi', route: 'acme/backup', attempts: 3, cached: false });
  });
});
