import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../src/lib/app-error';
import { createTestApp, type TTestApp } from './helpers';

const logLines: Record<string, unknown>[] = [];
let t: TTestApp;

beforeAll(async () => {
  t = await createTestApp(
    { logLevel: 'debug' },
    {
      webDist: path.join(os.tmpdir(), 'air-no-console-here'),
      logStream: { write: (line) => void logLines.push(JSON.parse(line)) },
    },
  );
  // Routes standing in for a console module, registered like one (own scope, /api prefix).
  await t.app.register(
    async (scope) => {
      const app = scope.withTypeProvider<ZodTypeProvider>();
      app.post(
        '/test/echo',
        {
          schema: {
            body: z.strictObject({
              name: z.string().min(1),
              email: z.email(),
              count: z.number().int().max(5).optional(),
            }),
          },
        },
        async (request) => ({ data: request.body, message: 'saved' }),
      );
      app.get('/test/boom', async (request) => {
        request.log.info({ body: { password: 'hunter2!' } }, 'about to fail');
        throw new Error('database password is swordfish');
      });
      // A quiet route, as the gateway's are: its own level, above the server's.
      app.get('/test/quiet', { logLevel: 'warn' }, async (request) => {
        request.log.info('quiet route: info');
        request.log.warn({ body: { password: 'swordfish' } }, 'quiet route: warn');
        return { ok: true };
      });
      app.get('/test/limited', async () => {
        throw new AppError('rate_limited', { retryAfter: 30 });
      });
      app.get('/test/upgrade', async () => {
        throw new AppError('payment_required', { extra: { plan: 'pro' } });
      });
      app.get('/test/taken', async () => {
        throw new AppError('conflict', { inputError: 'email' });
      });
    },
    { prefix: '/api' },
  );
});
afterAll(() => t?.close());

describe('wire format and errors', () => {
  it('passes a valid body through', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'Ana', email: 'a@b.co' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { name: 'Ana', email: 'a@b.co' }, message: 'saved' });
  });

  it('answers a validation failure with 400 and the first failing field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'Ana', email: 'nope' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation',
      message: 'Please enter a valid email address',
      inputError: 'email',
    });

    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'a@b.co' },
    });
    expect(missing.json()).toEqual({ code: 'validation', message: 'Name is required', inputError: 'name' });

    const big = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'A', email: 'a@b.co', count: 9 },
    });
    expect(big.json()).toEqual({
      code: 'validation',
      message: 'Count must be at most 5',
      inputError: 'count',
    });
  });

  it('rejects unknown body fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'Ana', email: 'a@b.co', isAdmin: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation',
      message: 'isAdmin is not an allowed field',
      inputError: 'isAdmin',
    });
  });

  it('localises messages by Accept-Language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'accept-language': 'es-ES,es;q=0.9' },
      payload: { name: 'Ana', email: 'nope' },
    });
    expect(res.json()).toEqual({
      code: 'validation',
      message: 'Introduce un correo electrónico válido',
      inputError: 'email',
    });
    const notFound = await t.app.inject({ url: '/api/nothing', headers: { 'accept-language': 'es' } });
    expect(notFound.json()).toEqual({ code: 'not_found', message: 'No encontrado' });
  });

  it('answers malformed or non-JSON bodies with 400, not 500', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'invalid_json', message: 'The request body is not valid JSON' });

    const text = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ code: 'unsupported_media_type', message: 'The request body must be JSON' });

    const none = await t.app.inject({ method: 'POST', url: '/api/test/echo' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ code: 'validation', message: 'A request body is required' });

    const array = await t.app.inject({ method: 'POST', url: '/api/test/echo', payload: [1, 2] });
    expect(array.statusCode).toBe(400);
    expect(array.json()).toEqual({ code: 'validation', message: 'The request body must be a JSON object' });
  });

  it('answers an unknown API path with a JSON 404 even when HTML is accepted', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({
        method,
        url: '/api/does/not/exist',
        headers: { accept: 'text/html' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({ code: 'not_found', message: 'Not found' });
    }
  });

  it('hides 5xx detail from the client and logs it with the request id', async () => {
    const res = await t.app.inject({ url: '/api/test/boom', headers: { 'x-request-id': 'boom-1' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'internal', message: 'Something went wrong' });
    expect(res.body).not.toContain('swordfish');
    const logged = logLines.find((line) => line.reqId === 'boom-1' && line.msg === 'request failed');
    expect(JSON.stringify(logged)).toContain('swordfish');
    const beforeFailing = logLines.find((line) => line.reqId === 'boom-1' && line.msg === 'about to fail');
    expect(beforeFailing).toMatchObject({ body: { password: '[redacted]' } });
  });

  it('sets Retry-After on 429 and passes extra fields (402 plan) and inputError (409)', async () => {
    const limited = await t.app.inject({ url: '/api/test/limited' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');
    expect(limited.json()).toEqual({
      code: 'rate_limited',
      message: 'Too many requests, please try again later',
    });

    const upgrade = await t.app.inject({ url: '/api/test/upgrade' });
    expect(upgrade.statusCode).toBe(402);
    expect(upgrade.json()).toEqual({
      code: 'payment_required',
      message: 'Please upgrade your plan to continue',
      plan: 'pro',
    });

    const taken = await t.app.inject({ url: '/api/test/taken' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ code: 'conflict', message: 'This already exists', inputError: 'email' });
  });
});

describe('request id', () => {
  it('echoes a sane incoming id and puts it in every log line of the request', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    const lines = logLines.filter((line) => line.reqId === 'abc-123');
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('logs requests at debug: at info a request that succeeds writes no line', async () => {
    t.app.log.level = 'info';
    try {
      await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'quiet-1' } });
      await t.app.inject({ url: '/api/nothing-here', headers: { 'x-request-id': 'quiet-2' } });
    } finally {
      t.app.log.level = 'debug';
    }
    expect(logLines.filter((line) => String(line.reqId).startsWith('quiet-'))).toEqual([]);
    expect(logLines.find((line) => line.reqId === 'abc-123')?.level).toBe(20);
  });

  it("keeps a route's own log level, with the request id and redaction in its lines", async () => {
    await t.app.inject({ url: '/api/test/quiet', headers: { 'x-request-id': 'quiet-route' } });
    const lines = logLines.filter((line) => line.reqId === 'quiet-route');
    expect(lines.map((line) => line.msg)).toEqual(['quiet route: warn']);
    expect(lines[0]).toMatchObject({ level: 40, body: { password: '[redacted]' } });
    // The server's own level is untouched by the route's.
    await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'after-quiet' } });
    expect(logLines.filter((line) => line.reqId === 'after-quiet')).toHaveLength(2);
  });

  it('replaces an unsafe or missing id with a fresh one', async () => {
    const unsafe = await t.app.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'evil\nid with spaces' },
    });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const a = await t.app.inject({ url: '/healthz' });
    const b = await t.app.inject({ url: '/healthz' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('platform routes', () => {
  it('answers /healthz after a real database query', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('sets the security headers', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    const csp = String(res.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('serves the OpenAPI document and its UI', async () => {
    const json = await t.app.inject({ url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    const doc = json.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/test/echo'].post.requestBody.content['application/json'].schema.required).toEqual([
      'name',
      'email',
    ]);
    const ui = await t.app.inject({ url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });

  it('explains how to build the console when it is missing', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});

describe('console static files', () => {
  let withConsole: TTestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'air-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>AIR console</title>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    withConsole = await createTestApp({}, { webDist: dist });
  });
  afterAll(() => withConsole?.close());

  it('serves index.html for client routes that accept HTML', async () => {
    for (const url of ['/', '/signin', '/account/billing?tab=card']) {
      const res = await withConsole.app.inject({
        url,
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('AIR console');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable and 404s unknown files as JSON', async () => {
    const asset = await withConsole.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await withConsole.app.inject({ url: '/assets/missing.js', headers: { accept: '*/*' } });
    expect(missing.statusCode).toBe(200); // history fallback: */* accepts HTML
    const json = await withConsole.app.inject({
      url: '/assets/missing.js',
      headers: { accept: 'application/javascript' },
    });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ code: 'not_found', message: 'Not found' });
  });

  it('never falls back to index.html under /api', async () => {
    const res = await withConsole.app.inject({ url: '/api/unknown', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'not_found', message: 'Not found' });
  });
});

describe('the static sign-in page (decision 034)', () => {
  // The console's index.html as Vite builds it, and the page the console build renders beside it.
  const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <script src="/theme.js"></script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/framework-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;
  const SHELL =
    '<div id="signin-shell"><h1>Sign in</h1><form method="dialog"><input name="email"></form></div>';
  let withShell: TTestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'air-dist-shell-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'signin-shell.html'), SHELL);
    withShell = await createTestApp({}, { webDist: dist });
  });
  afterAll(() => withShell?.close());

  it('is in the HTML of / and /signin, before #root, with the bundle asked for after the first frame', async () => {
    for (const [url, accept] of [
      ['/signin', 'text/html,application/xhtml+xml'],
      ['/', 'text/html'],
      ['/', 'application/json'],
    ] as const) {
      const res = await withShell.app.inject({ url, headers: { accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain(`<body>\n    ${SHELL}<div id="root"></div>`);
      // The bundle is asked for after the first frame (after-paint.js), nothing preloaded beside it.
      expect(res.body).toContain(
        '<script src="/after-paint.js" data-entry="/assets/index-abc.js" defer></script>',
      );
      expect(res.body).not.toContain('<script type="module"');
      expect(res.body).not.toContain('modulepreload');
      expect(res.body).toContain('<script src="/theme.js"></script>');
    }
    const head = await withShell.app.inject({
      method: 'HEAD',
      url: '/signin',
      headers: { accept: 'text/html' },
    });
    expect(head.statusCode).toBe(200);
  });

  it('is not on other pages, and /signin stays a JSON 404 for a request that does not accept HTML', async () => {
    const signup = await withShell.app.inject({ url: '/signup', headers: { accept: 'text/html' } });
    expect(signup.statusCode).toBe(200);
    expect(signup.body).toBe(INDEX);
    const json = await withShell.app.inject({ url: '/signin', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ code: 'not_found', message: 'Not found' });
  });
});
