import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/lib/crypto';
import { createTestApp, type TTestApp } from './helpers';

/*
 * Issue 21, item 6: a body over the limit is answered with a 413 and an error body the client can
 * read, on the console API ({ message }) and the gateway (OpenAI's { error }), also by a client
 * that sends its whole body before reading (most HTTP libraries): the server reads and drops the
 * rest of the body first instead of closing on unread bytes (a reset, a broken pipe).
 */

let t: TTestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
afterAll(async () => {
  await t?.close();
});

/** Writes the request and the whole body, then reads what came back until the server closes. */
function sendWhole(path: string, size: number, chunked = false) {
  return new Promise<{ error?: string; head: string; body: string }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let error: string | undefined;
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code));
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ error, head, body });
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `authorization: Bearer air_${'x'.repeat(40)}\r\nconnection: close\r\n` +
        (chunked ? 'transfer-encoding: chunked\r\n\r\n' : `content-length: ${size}\r\n\r\n`),
    );
    const body = Buffer.alloc(size, 'a');
    if (chunked)
      socket.end(
        Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]),
      );
    else socket.end(body);
  });
}

describe('a body over the limit', () => {
  for (const chunked of [false, true]) {
    it(`console API: 413 { message } after the client sent 12 MB${chunked ? ' (chunked)' : ''}`, async () => {
      const answer = await sendWhole('/api/auth', 12_000_000, chunked);
      expect(answer.error).toBeUndefined();
      expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(JSON.parse(answer.body)).toEqual({
        code: 'payload_too_large',
        message: 'The request is too large',
      });
    });

    it(`gateway: 413 in OpenAI's shape after the client sent 12 MB${chunked ? ' (chunked)' : ''}`, async () => {
      const answer = await sendWhole('/api/v1/chat/completions', 12_000_000, chunked);
      expect(answer.error).toBeUndefined();
      expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(JSON.parse(answer.body)).toEqual({
        error: {
          message: 'The request body is too large.',
          type: 'invalid_request_error',
          code: 'payload_too_large',
        },
      });
    });

    // Anthropic's API reference: 413 `request_too_large`, in its error shape (decision 054). The
    // fast lane takes /v1/messages; with a query string (the SDK's `?beta=true`) Fastify's parser
    // does, and count_tokens is Fastify's alone.
    for (const path of ['/api/v1/messages', '/api/v1/messages?beta=true', '/api/v1/messages/count_tokens']) {
      it(`gateway: 413 in Anthropic's shape on ${path}${chunked ? ' (chunked)' : ''}`, async () => {
        const answer = await sendWhole(path, 12_000_000, chunked);
        expect(answer.error).toBeUndefined();
        expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
        expect(JSON.parse(answer.body)).toEqual({
          type: 'error',
          error: { type: 'request_too_large', message: 'The request body is too large.' },
        });
      });
    }
  }

  it('the server keeps serving', async () => {
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});

// Last: it spends this client address's budget of unknown keys (30 a minute).
describe("what /v1/messages refuses before its handler, in Anthropic's shape", () => {
  it("answers the unknown keys' budget with rate_limit_error (decision 054)", async () => {
    const call = () =>
      fetch(`http://127.0.0.1:${port}/api/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': `air_${randomBase62(40)}` },
        body: JSON.stringify({ model: 'any', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }),
      });
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await call());
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toContain(401);
    const limited = answers[statuses.indexOf(429)]!;
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect(await limited.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.any(String) },
    });
    const unknown = answers[statuses.indexOf(401)]!;
    expect(await unknown.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});
