import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiKeyOf, BEARER, isUnexpired, type TKeyAuth } from './credentials';

// Which header names an AIR key and when a key stops being one (contract 6b), each rule at its
// exact edge: a mutant that lets another string through as a key, or an expired key as valid,
// fails here.

function key(expiresAt: number | null): TKeyAuth {
  return {
    kind: 'key',
    keyId: 'k',
    accountId: 'a',
    scopes: [],
    expiresAt,
    routes: null,
    monthlyCalls: null,
    tokensPerMinute: null,
    monthlySpendMinor: null,
    allowedOrigins: new Set(),
    tools: null,
    toolsReadOnly: false,
  };
}

describe('BEARER', () => {
  it('reads the token of `Bearer <token>`, any case, any spaces between, trailing spaces allowed', () => {
    expect(BEARER.exec('Bearer abc')?.[1]).toBe('abc');
    expect(BEARER.exec('bearer abc')?.[1]).toBe('abc');
    expect(BEARER.exec('BEARER \t abc  ')?.[1]).toBe('abc');
  });

  it('takes nothing else: another scheme, a prefix, no space, no token, two tokens', () => {
    expect(BEARER.exec('Basic abc')).toBeNull();
    expect(BEARER.exec('xBearer abc')).toBeNull();
    expect(BEARER.exec('Bearerabc')).toBeNull();
    expect(BEARER.exec('Bearer ')).toBeNull();
    expect(BEARER.exec('Bearer abc def')).toBeNull();
    expect(BEARER.exec('Bearer abc x')).toBeNull();
  });
});

describe('apiKeyOf', () => {
  it('reads an air_ key from Authorization: Bearer', () => {
    expect(apiKeyOf({ authorization: 'Bearer air_one' })).toBe('air_one');
    expect(apiKeyOf({ authorization: 'bearer   air_one ' })).toBe('air_one');
  });

  it('reads an air_ key from x-api-key when Authorization names none', () => {
    expect(apiKeyOf({ 'x-api-key': 'air_two' })).toBe('air_two');
    expect(apiKeyOf({ authorization: 'Bearer session-token', 'x-api-key': 'air_two' })).toBe('air_two');
    expect(apiKeyOf({ authorization: 'Basic air_one', 'x-api-key': 'air_two' })).toBe('air_two');
  });

  it('prefers the Authorization key over x-api-key', () => {
    expect(apiKeyOf({ authorization: 'Bearer air_one', 'x-api-key': 'air_two' })).toBe('air_one');
  });

  it('is no key without the air_ prefix at the start, in either header', () => {
    expect(apiKeyOf({ authorization: 'Bearer session-token' })).toBeNull();
    expect(apiKeyOf({ authorization: 'Bearer xair_one' })).toBeNull();
    expect(apiKeyOf({ authorization: 'Bearer AIR_one' })).toBeNull();
    expect(apiKeyOf({ 'x-api-key': 'sk-one' })).toBeNull();
    expect(apiKeyOf({ 'x-api-key': 'xair_one' })).toBeNull();
    expect(apiKeyOf({ authorization: 'air_one' })).toBeNull();
    expect(apiKeyOf({ authorization: '' })).toBeNull();
    expect(apiKeyOf({})).toBeNull();
  });

  it('is no key when x-api-key is not one string (repeated header)', () => {
    expect(apiKeyOf({ 'x-api-key': ['air_a', 'air_b'] as never })).toBeNull();
  });
});

describe('isUnexpired', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds for no key and for a key without expiry', () => {
    expect(isUnexpired(null)).toBe(true);
    expect(isUnexpired(key(null))).toBe(true);
  });

  it('holds before the expiry, not at it or after', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    expect(isUnexpired(key(1_000_001))).toBe(true);
    expect(isUnexpired(key(1_000_000))).toBe(false);
    expect(isUnexpired(key(999_999))).toBe(false);
    expect(isUnexpired(key(0))).toBe(false);
  });
});
