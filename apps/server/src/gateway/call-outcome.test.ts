import { describe, expect, it } from 'vitest';
import type { TKeyAuth } from '../core/credentials';
import { MAX_JSON_DEPTH } from '../lib/json-guard';
import { goneResult, mayCall, ownResult, parseObject, refusedRow, unknownRouteRow } from './call-outcome';
import type { TRouteEntry } from './directory';
import { GATEWAY_ERRORS } from './errors';

// Who may call a route (contract 6 plus the key's allow-list), the body as a JSON object, and the
// results and request-log rows of calls no upstream answered.

function key(over: Partial<TKeyAuth> = {}): TKeyAuth {
  return {
    kind: 'key',
    keyId: 'k',
    accountId: 'caller',
    scopes: [],
    expiresAt: null,
    routes: null,
    monthlyCalls: null,
    tokensPerMinute: null,
    monthlySpendMinor: null,
    allowedOrigins: new Set(),
    tools: null,
    toolsReadOnly: false,
    ...over,
  };
}

function route(over: Partial<TRouteEntry> = {}): TRouteEntry {
  return {
    endpointId: 'ep',
    accountId: 'owner',
    routeName: 'r',
    isPublic: true,
    isActive: true,
    ...over,
  } as TRouteEntry;
}

describe('mayCall', () => {
  it('refuses no route', () => {
    expect(mayCall(key(), null)).toBe(false);
    expect(mayCall(key(), undefined)).toBe(false);
  });

  it("takes another account's public active route, and the caller's own private one", () => {
    expect(mayCall(key(), route())).toBe(true);
    expect(mayCall(key(), route({ accountId: 'caller', isPublic: false }))).toBe(true);
  });

  it("refuses another account's private route", () => {
    expect(mayCall(key(), route({ isPublic: false }))).toBe(false);
  });

  it('refuses an inactive route, even its own or a public one', () => {
    expect(mayCall(key(), route({ isActive: false }))).toBe(false);
    expect(mayCall(key(), route({ accountId: 'caller', isPublic: false, isActive: false }))).toBe(false);
  });

  it("refuses a route outside the key's allow-list, its own too, and takes one on it", () => {
    const only = key({ routes: new Set(['r']) });
    expect(mayCall(only, route())).toBe(true);
    expect(mayCall(only, route({ routeName: 'other' }))).toBe(false);
    expect(mayCall(only, route({ routeName: 'other', accountId: 'caller' }))).toBe(false);
    expect(mayCall(key({ routes: new Set() }), route())).toBe(false);
    expect(mayCall(only, route({ isPublic: false }))).toBe(false);
  });
});

describe('parseObject', () => {
  it('reads a JSON object', () => {
    expect(parseObject(Buffer.from('{"model":"m","n":1}'))).toEqual({ model: 'm', n: 1 });
    expect(parseObject(Buffer.from('{}'))).toEqual({});
  });

  it('is null for JSON that is no object: null, an array, a string, a number', () => {
    for (const text of ['null', '[]', '[{"a":1}]', '"text"', '3', 'true']) {
      expect(parseObject(Buffer.from(text))).toBeNull();
    }
  });

  it('is null for what is not JSON', () => {
    expect(parseObject(Buffer.from('{"a":'))).toBeNull();
    expect(parseObject(Buffer.alloc(0))).toBeNull();
  });

  it('reads UTF-8 text', () => {
    expect(parseObject(Buffer.from('{"text":"año ✓"}', 'utf8'))).toEqual({ text: 'año ✓' });
  });

  it('is null past the nesting limit, and reads an object at it', () => {
    const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    expect(parseObject(Buffer.from(nested(MAX_JSON_DEPTH)))).not.toBeNull();
    expect(parseObject(Buffer.from(nested(MAX_JSON_DEPTH + 1)))).toBeNull();
  });
});

describe('results of calls no upstream answered', () => {
  it("ownResult: the gateway's status and code, no upstream time, no stream, the caller still there", () => {
    expect(ownResult(402, 'spend_limit_reached')).toStrictEqual({
      status: 402,
      errorCode: 'spend_limit_reached',
      upstreamMs: 0,
      body: null,
      stream: null,
      clientGone: false,
      streamed: false,
    });
  });

  it('ownResult: a kept body, and `retried` only when given', () => {
    const body = Buffer.from('{}');
    expect(ownResult(200, null, body)).toStrictEqual({
      status: 200,
      errorCode: null,
      upstreamMs: 0,
      body,
      stream: null,
      clientGone: false,
      streamed: false,
    });
    expect(ownResult(502, 'upstream_unreachable', null, true).retried).toBe(true);
    expect(ownResult(502, 'upstream_unreachable', null, false).retried).toBe(false);
    expect('retried' in ownResult(502, 'upstream_unreachable', null, false)).toBe(true);
    expect('retried' in ownResult(502, 'upstream_unreachable')).toBe(false);
  });

  it('goneResult: 499, the caller gone, nothing else', () => {
    expect(goneResult()).toStrictEqual({
      status: 499,
      errorCode: null,
      upstreamMs: 0,
      body: null,
      stream: null,
      clientGone: true,
      streamed: false,
    });
  });
});

describe('request-log rows of refused calls', () => {
  it('refusedRow: the caller and key, no endpoint or provider, the code and its status, never billed', () => {
    const before = Date.now();
    const row = refusedRow(key({ keyId: 'key-1', accountId: 'acct-1' }), 'spend_limit_reached', 12.6);
    expect(row).toStrictEqual({
      callerAccountId: 'acct-1',
      keyId: 'key-1',
      endpointId: null,
      providerAccountId: null,
      status: GATEWAY_ERRORS.spend_limit_reached.status,
      latencyMs: 13,
      promptTokens: null,
      completionTokens: null,
      tokensEstimated: false,
      streamed: false,
      errorCode: 'spend_limit_reached',
      attempts: 0,
      cacheHit: false,
      price: null,
      createdAt: row.createdAt,
    });
    expect(row.status).toBe(402);
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('unknownRouteRow: a route_not_found refusal', () => {
    const row = unknownRouteRow(key(), 3.2);
    expect(row.errorCode).toBe('route_not_found');
    expect(row.status).toBe(GATEWAY_ERRORS.route_not_found.status);
    expect(row.latencyMs).toBe(3);
    expect(row.endpointId).toBeNull();
    expect(row.price).toBeNull();
  });
});
