import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { CONTENT_LIMIT, providerOf } from '../src/gateway/call-trace';
import { startTracing } from '../src/lib/tracing-sdk';
import { createTestApp, type TTestApp } from './helpers';
import { insertKey, writeTestPlans } from './gateway-fixtures';
import { startProgrammableUpstream, type TProgrammableUpstream } from './routing-fixtures';
import { bearer, createActor, type TActor } from './support/actors';
import { startOtlpReceiver, type TExportedSpan, type TOtlpReceiver } from './support/otlp-receiver';

/*
 * Issue 43 item 1: with OTEL_EXPORTER_OTLP_ENDPOINT set, a span per gateway call (GenAI
 * conventions and AIR's attributes) with a child span per upstream attempt, `traceparent` to the
 * upstream (the caller's trace continued), a span per console request, and no prompt or answer in
 * any span unless the endpoint's owner turned `trace_content` on. The official SDK's exporter
 * sends to a test receiver that decodes the protobuf export (support/otlp-receiver.ts).
 */

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

let t: TTestApp;
let receiver: TOtlpReceiver;
let upstream: TProgrammableUpstream;
let owner: TActor;
let key: { id: string; raw: string };
let base = '';
let plansDir = '';

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  upstream = await startProgrammableUpstream('traced');
  plansDir = mkdtempSync(path.join(os.tmpdir(), 'air-tracing-'));
  // The tracing configuration as the variables give it, the collector's key among its headers.
  const { tracing } = loadConfig({
    DATA_DIR: plansDir,
    OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=s3cret%20key',
    OTEL_SERVICE_NAME: 'air-under-test',
  });
  t = await createTestApp({ plansFile: writeTestPlans(plansDir), upstreamAllowPrivate: true, tracing });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await createActor(t.app);
  key = await insertKey(t.db, t.config.secret, owner.accountId);
  // Two endpoints through the console API: a plain one, and one retried once (contract 6a).
  for (const [route, config] of [
    ['traced/plain', {}],
    ['traced/retried', { retry: { attempts: 1, backoff_ms: 0 } }],
  ] as const) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/aiendpoint',
      headers: bearer(owner.token),
      payload: { name: route, route_name: route, route_endpoint: upstream.url, route_type: 'model', config },
    });
    expect(created.statusCode).toBe(201);
  }
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  await receiver?.close();
  rmSync(plansDir, { recursive: true, force: true });
});

async function call(model: string, content: string, extra: Record<string, string> = {}, stream = false) {
  const answer = await fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key.raw}`, ...extra },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }], ...(stream ? { stream } : {}) }),
  });
  const text = await answer.text();
  return { status: answer.status, requestId: answer.headers.get('x-request-id')!, text };
}

/** The exported spans of the trace the gateway call with this request id made (flushed first). */
async function traceOf(requestId: string, count: number): Promise<TExportedSpan[]> {
  let spans: TExportedSpan[] = [];
  await expect
    .poll(async () => {
      await t.app.tracing!.flush();
      const root = receiver.spans.find((span) => span.attributes['air.request_id'] === requestId);
      spans = root ? receiver.spans.filter((span) => span.traceId === root.traceId) : [];
      return spans.length;
    })
    .toBeGreaterThanOrEqual(count);
  return spans;
}

const traceparentOf = (headers: Record<string, unknown>) => {
  const value = String(headers.traceparent ?? '');
  const [version, traceId, spanId, flags] = value.split('-');
  return { version, traceId, spanId, flags };
};

describe('OpenTelemetry traces (issue 43 item 1)', () => {
  it('a gateway call: its span with the GenAI attributes, an attempt span, the same trace upstream', async () => {
    const answer = await call('traced/plain', 'a private prompt');
    expect(answer.status).toBe(200);
    const spans = await traceOf(answer.requestId, 2);
    const root = spans.find((span) => span.kind === SERVER)!;
    const attempt = spans.find((span) => span.kind === CLIENT)!;
    expect(spans).toHaveLength(2);
    expect(root.name).toBe('chat traced/plain');
    expect(root.parentSpanId).toBe('');
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'traced/plain',
      'gen_ai.response.model': 'traced',
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.provider.name': '_OTHER',
      'http.response.status_code': 200,
      'air.route': 'traced/plain',
      'air.key_id': key.id,
      'air.attempts': 1,
      'air.cache_hit': false,
      'air.upstream.host': new URL(upstream.url).host,
      'air.request_id': answer.requestId,
    });
    expect(root.attributes).not.toHaveProperty('error.type');
    expect(root.resource['service.name']).toBe('air-under-test');
    expect(attempt.parentSpanId).toBe(root.spanId);
    expect(attempt.name).toBe('chat traced/plain');
    expect(attempt.attributes).toMatchObject({
      'gen_ai.request.model': 'traced/plain',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(upstream.url).port),
      'http.response.status_code': 200,
      'air.attempt': 1,
      'air.retried': false,
    });
    // The upstream continued this very trace, under the attempt's span.
    const sent = traceparentOf(upstream.calls.at(-1)!.headers);
    expect(sent).toEqual({ version: '00', traceId: root.traceId, spanId: attempt.spanId, flags: '01' });
    // The collector got its key; the prompt, the answer and the caller's key are nowhere.
    expect(receiver.exports.at(-1)).toMatchObject({ path: '/v1/traces' });
    expect(receiver.exports.at(-1)!.headers['x-collector-key']).toBe('s3cret key');
    const exported = JSON.stringify(receiver.spans, (_k, v: unknown) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(exported).not.toContain('a private prompt');
    expect(exported).not.toContain('Hello from the mock');
    expect(exported).not.toContain(key.raw);
    expect(root.events).toEqual([]);
  });

  it("continues the caller's traceparent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const answer = await call('traced/plain', 'hi', { traceparent: `00-${traceId}-${parent}-01` });
    expect(answer.status).toBe(200);
    const spans = await traceOf(answer.requestId, 2);
    const root = spans.find((span) => span.kind === SERVER)!;
    expect(root.traceId).toBe(traceId);
    expect(root.parentSpanId).toBe(parent);
    expect(traceparentOf(upstream.calls.at(-1)!.headers).traceId).toBe(traceId);
    // A malformed one starts a new trace instead.
    const fresh = await call('traced/plain', 'hi', { traceparent: 'garbage' });
    const [own] = await traceOf(fresh.requestId, 2);
    expect(own!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(own!.traceId).not.toBe(traceId);
  });

  it('a routed call retried after a 503: two attempt spans under the call', async () => {
    upstream.queue({ kind: 'status', status: 503 });
    const answer = await call('traced/retried', 'retry me');
    expect(answer.status).toBe(200);
    const spans = await traceOf(answer.requestId, 3);
    const root = spans.find((span) => span.kind === SERVER)!;
    const attempts = spans
      .filter((span) => span.kind === CLIENT)
      .sort((a, b) => Number(a.attributes['air.attempt']) - Number(b.attributes['air.attempt']));
    expect(attempts).toHaveLength(2);
    expect(attempts.every((span) => span.parentSpanId === root.spanId)).toBe(true);
    expect(attempts[0]!.attributes).toMatchObject({
      'air.attempt': 1,
      'air.retried': true,
      'http.response.status_code': 503,
      'error.type': '503',
    });
    expect(attempts[0]!.status).toBe(ERROR);
    expect(attempts[1]!.attributes).toMatchObject({ 'air.attempt': 2, 'http.response.status_code': 200 });
    expect(root.attributes).toMatchObject({ 'air.attempts': 2, 'http.response.status_code': 200 });
    // Each attempt sent its own span as the parent, in the one trace.
    const sent = upstream.calls.slice(-2).map((seen) => traceparentOf(seen.headers));
    expect(sent.map((value) => value.spanId)).toEqual(attempts.map((span) => span.spanId));
    expect(new Set(sent.map((value) => value.traceId))).toEqual(new Set([root.traceId]));
  });

  it('names the GenAI provider from the upstream host, _OTHER when it is no provider API', () => {
    expect(providerOf('api.openai.com')).toBe('openai');
    expect(providerOf('my-resource.openai.azure.com')).toBe('azure.ai.openai');
    expect(providerOf('api.anthropic.com')).toBe('anthropic');
    expect(providerOf('generativelanguage.googleapis.com')).toBe('gcp.gemini');
    expect(providerOf('bedrock-runtime.eu-west-1.amazonaws.com')).toBe('aws.bedrock');
    expect(providerOf('api.openai.com.evil.example')).toBe('_OTHER');
    expect(providerOf('127.0.0.1')).toBe('_OTHER');
  });

  it("a refused call's span names the refusal", async () => {
    const answer = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer air_nobody' },
      body: '{"model":"traced/plain","messages":[]}',
    });
    expect(answer.status).toBe(401);
    const [span] = await traceOf(answer.headers.get('x-request-id')!, 1);
    expect(span!.attributes).toMatchObject({
      'http.response.status_code': 401,
      'error.type': 'invalid_api_key',
    });
  });

  it('a console request span, and none of the console kind for gateway calls or probes', async () => {
    const answer = await fetch(`${base}/api/aiendpoint`, { headers: bearer(owner.token) });
    expect(answer.status).toBe(200);
    await fetch(`${base}/livez`);
    const requestId = answer.headers.get('x-request-id')!;
    const [span] = await traceOf(requestId, 1);
    expect(span!.name).toBe('GET /api/aiendpoint');
    expect(span!.kind).toBe(SERVER);
    expect(span!.attributes).toMatchObject({
      'http.route': '/api/aiendpoint',
      'http.response.status_code': 200,
    });
    const fastifySpans = receiver.spans.filter((one) => one.attributes['fastify.root'] === '@fastify/otel');
    expect(fastifySpans.some((one) => String(one.attributes['url.path']).startsWith('/api/v1'))).toBe(false);
    expect(fastifySpans.some((one) => one.attributes['url.path'] === '/livez')).toBe(false);
  });

  it('records content only once the owner turns trace_content on, bounded in size', async () => {
    const settings = await t.app.inject({
      method: 'GET',
      url: '/api/aiendpoint',
      headers: bearer(owner.token),
    });
    const plain = (settings.json().data as { id: string; route_name: string; config: object }[]).find(
      (row) => row.route_name === 'traced/plain',
    )!;
    expect(plain.config).toMatchObject({ trace_content: false });
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/aiendpoint/${plain.id}`,
      headers: bearer(owner.token),
      payload: { config: { trace_content: true } },
    });
    expect(patched.statusCode).toBe(200);
    const read = await t.app.inject({ url: `/api/aiendpoint/${plain.id}`, headers: bearer(owner.token) });
    expect(read.json().data.config.trace_content).toBe(true);

    const long = 'x'.repeat(CONTENT_LIMIT + 100);
    const answer = await call('traced/plain', `the recorded prompt ${long}`);
    expect(answer.status).toBe(200);
    const root = (await traceOf(answer.requestId, 2)).find((span) => span.kind === SERVER)!;
    const prompt = root.events.find((event) => event.name === 'gen_ai.content.prompt')!;
    expect(String(prompt.attributes['gen_ai.prompt'])).toContain('the recorded prompt');
    expect(String(prompt.attributes['gen_ai.prompt'])).toHaveLength(CONTENT_LIMIT);
    expect(prompt.attributes['air.content_truncated']).toBe(true);
    const completion = root.events.find((event) => event.name === 'gen_ai.content.completion')!;
    expect(String(completion.attributes['gen_ai.completion'])).toContain('Hello from the mock.');

    // A streamed answer: its generated text, as the stream carried it.
    const streamed = await call('traced/plain', 'stream it', {}, true);
    expect(streamed.status).toBe(200);
    const streamRoot = (await traceOf(streamed.requestId, 2)).find((span) => span.kind === SERVER)!;
    expect(streamRoot.events.find((event) => event.name === 'gen_ai.content.completion')!.attributes).toEqual(
      {
        'gen_ai.completion': 'from traced',
      },
    );
    expect(streamRoot.attributes['air.tokens_estimated']).toBe(true);

    // Off again: nothing recorded.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/aiendpoint/${plain.id}`,
      headers: bearer(owner.token),
      payload: { config: { trace_content: false } },
    });
    const after = await call('traced/plain', 'not recorded');
    const afterRoot = (await traceOf(after.requestId, 2)).find((span) => span.kind === SERVER)!;
    expect(afterRoot.events).toEqual([]);
  });

  it('says once when the collector refuses exports and once when it takes them again', async () => {
    let refuse = true;
    const collector = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(refuse ? 400 : 200, { 'content-type': 'application/x-protobuf' }).end(),
      );
    });
    collector.listen(0, '127.0.0.1');
    await once(collector, 'listening');
    const host = `127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const lines: { level: string; object: object; message: string }[] = [];
    const log = {
      warn: (object: object, message: string) => void lines.push({ level: 'warn', object, message }),
      info: (object: object, message: string) => void lines.push({ level: 'info', object, message }),
    };
    const tracing = startTracing(
      loadConfig({
        DATA_DIR: plansDir,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://${host}`,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=never-logged',
      }).tracing!,
      log,
    );
    try {
      for (let i = 0; i < 2; i++) {
        tracing.tracer.startSpan('refused').end();
        await tracing.flush();
      }
      refuse = false;
      tracing.tracer.startSpan('taken').end();
      await tracing.flush();
      expect(lines.map((line) => [line.level, line.message])).toEqual([
        ['warn', 'OTEL_EXPORTER_OTLP_ENDPOINT: cannot export traces; spans are dropped until it answers'],
        ['info', 'OpenTelemetry collector reachable again'],
      ]);
      expect(lines[0]!.object).toMatchObject({ collector: host });
      expect(JSON.stringify(lines)).not.toContain('never-logged');
    } finally {
      await tracing.shutdown();
      collector.close();
    }
  });
});
