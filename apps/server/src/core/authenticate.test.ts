import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthenticateCaller } from './authenticate';
import type { TKeyAuth, TSessionAuth } from './credentials';

// The one authentication of every door, with key and session look-ups of the test's own: which
// header is read as what, which door takes sessions, an expired key, a key found now or later.

function key(keyId: string, expiresAt: number | null = null): TKeyAuth {
  return Object.freeze({
    kind: 'key',
    keyId,
    accountId: `acct-${keyId}`,
    scopes: [],
    expiresAt,
    routes: null,
    monthlyCalls: null,
    tokensPerMinute: null,
    monthlySpendMinor: null,
    allowedOrigins: new Set<string>(),
    tools: null,
    toolsReadOnly: false,
  });
}

const SESSION: TSessionAuth = {
  kind: 'session',
  userId: 'u',
  accountId: 'acct-u',
  sessionId: 's',
  role: 'owner',
  permission: {} as never,
  verified: true,
  hasNotice: false,
};

function setup(
  keys: Record<string, TKeyAuth>,
  options: { async?: boolean; sessions?: Record<string, TSessionAuth> } = {},
) {
  const keyLookups: [string, { readonly ip: string } | undefined][] = [];
  const sessionLookups: string[] = [];
  const app: Pick<FastifyInstance, 'resolveApiKey' | 'resolveSession'> = {
    resolveApiKey(rawKey: string, client?: { readonly ip: string }) {
      keyLookups.push([rawKey, client]);
      const found = keys[rawKey] ?? null;
      return options.async ? Promise.resolve(found) : found;
    },
    resolveSession(token: string) {
      sessionLookups.push(token);
      return Promise.resolve(options.sessions?.[token] ?? null);
    },
  };
  // Only the two look-ups are read by the authentication.
  return { authenticate: createAuthenticateCaller(app as FastifyInstance), keyLookups, sessionLookups };
}

const CLIENT = { ip: '203.0.113.7' };
const bearer = (token: string): IncomingHttpHeaders => ({ authorization: `Bearer ${token}` });

describe('authenticateCaller', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a cached key at once (no promise), frozen, with the client passed to the look-up', () => {
    const { authenticate, keyLookups } = setup({ air_one: key('one') });
    const caller = authenticate(bearer('air_one'), CLIENT, 'keys');
    expect(caller).not.toBeInstanceOf(Promise);
    expect(caller).toEqual({ auth: key('one'), keyExpired: false });
    expect(Object.isFrozen(caller)).toBe(true);
    expect(keyLookups).toEqual([['air_one', CLIENT]]);
  });

  it('answers a key looked up later through the promise', async () => {
    const { authenticate } = setup({ air_one: key('one') }, { async: true });
    const caller = authenticate({ 'x-api-key': 'air_one' }, CLIENT, 'keys-and-sessions');
    expect(caller).toBeInstanceOf(Promise);
    expect(await caller).toEqual({ auth: key('one'), keyExpired: false });
  });

  it('is nobody for an unknown key, now or later, and never tries it as a session', async () => {
    const sync = setup({}, { sessions: { air_gone: SESSION } });
    expect(sync.authenticate(bearer('air_gone'), CLIENT, 'keys-and-sessions')).toEqual({
      auth: null,
      keyExpired: false,
    });
    expect(sync.sessionLookups).toEqual([]);
    const later = setup({}, { async: true });
    expect(await later.authenticate(bearer('air_gone'), CLIENT, 'keys')).toEqual({
      auth: null,
      keyExpired: false,
    });
  });

  it('refuses an expired key saying so (at its expiry, not a millisecond before), now or later', async () => {
    vi.useFakeTimers({ now: 5_000 });
    const { authenticate } = setup({ air_old: key('old', 5_000), air_new: key('new', 5_001) });
    const expired = authenticate(bearer('air_old'), CLIENT, 'keys');
    expect(expired).toEqual({ auth: null, keyExpired: true });
    expect(Object.isFrozen(expired)).toBe(true);
    expect(authenticate(bearer('air_new'), CLIENT, 'keys')).toEqual({
      auth: key('new', 5_001),
      keyExpired: false,
    });
    const later = setup({ air_old: key('old', 5_000) }, { async: true });
    expect(await later.authenticate(bearer('air_old'), CLIENT, 'keys')).toEqual({
      auth: null,
      keyExpired: true,
    });
  });

  it('takes no session at a keys-only door (the gateway)', () => {
    const { authenticate, sessionLookups } = setup({}, { sessions: { tok: SESSION } });
    const caller = authenticate(bearer('tok'), CLIENT, 'keys');
    expect(caller).toEqual({ auth: null, keyExpired: false });
    expect(sessionLookups).toEqual([]);
  });

  it('takes a live session where sessions are taken, frozen', async () => {
    const { authenticate, sessionLookups } = setup({}, { sessions: { tok: SESSION } });
    const caller = await authenticate(bearer('tok'), CLIENT, 'keys-and-sessions');
    expect(caller).toEqual({ auth: SESSION, keyExpired: false });
    expect(Object.isFrozen(caller)).toBe(true);
    expect(sessionLookups).toEqual(['tok']);
  });

  it('is nobody for a session token that resolves to nothing', async () => {
    const { authenticate } = setup({}, { sessions: {} });
    expect(await authenticate(bearer('tok'), CLIENT, 'keys-and-sessions')).toEqual({
      auth: null,
      keyExpired: false,
    });
  });

  it('looks up no session without a Bearer token (no header, another scheme, x-api-key not a key)', () => {
    const { authenticate, sessionLookups, keyLookups } = setup({}, { sessions: { tok: SESSION } });
    for (const headers of [
      {},
      { authorization: '' },
      { authorization: 'Basic tok' },
      { 'x-api-key': 'tok' },
    ]) {
      expect(authenticate(headers, CLIENT, 'keys-and-sessions')).toEqual({ auth: null, keyExpired: false });
    }
    expect(sessionLookups).toEqual([]);
    expect(keyLookups).toEqual([]);
  });

  it('reads the session token out of the Bearer header', async () => {
    const { authenticate, sessionLookups } = setup({}, { sessions: { tok: SESSION } });
    expect(await authenticate({ authorization: 'bearer  tok ' }, CLIENT, 'keys-and-sessions')).toEqual({
      auth: SESSION,
      keyExpired: false,
    });
    expect(sessionLookups).toEqual(['tok']);
  });
});
