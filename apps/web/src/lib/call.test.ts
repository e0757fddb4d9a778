import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { TApiKey } from '@air/shared/schemas/api-key';
import { call, callUrl } from './api';

/*
 * `call` is typed by the shared call table (@air/shared/api): the `@ts-expect-error` lines below
 * are checked by `npm run typecheck`, which fails if a wrong body, a missing path parameter or an
 * unknown call stops being an error.
 */
describe('call', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fills path parameters (a list joined by commas, each part encoded) and the query', () => {
    expect(callUrl('GET /api/key/:id', { id: 'a/b c' })).toBe('/api/key/a%2Fb%20c');
    expect(callUrl('DELETE /api/user/:id', { id: ['x,1', 'y'] })).toBe('/api/user/x%2C1,y');
    expect(callUrl('GET /api/account/activity', undefined, new URLSearchParams({ page: '2' }))).toBe(
      '/api/account/activity?page=2',
    );
    expect(callUrl('GET /api/account/activity', undefined, '')).toBe('/api/account/activity');
  });

  it('sends the declared method and body and answers the declared shape', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(
      async () =>
        new Response(JSON.stringify({ data: { invited: ['a@x.io'], resent: [], invites: [] } }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const res = await call('POST /api/invite', { body: { email: 'a@x.io', permission: 'admin' } });
    expect(res.data?.invited).toEqual(['a@x.io']);
    const [url, init = {}] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/invite');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'a@x.io', permission: 'admin' });
  });

  it('is typed by the shared table', () => {
    expectTypeOf(call<'GET /api/key/:id'>).returns.resolves.toHaveProperty('data');
    type TKeyAnswer = Awaited<ReturnType<typeof call<'GET /api/key/:id'>>>;
    expectTypeOf<TKeyAnswer['data']>().toEqualTypeOf<TApiKey>();
    const typeOnly = () => {
      // @ts-expect-error a path parameter is required
      void call('GET /api/key/:id');
      // @ts-expect-error the owner role cannot be invited
      void call('POST /api/invite', { body: { email: 'a@x.io', permission: 'owner' } });
      // @ts-expect-error not a call of the console API
      void call('GET /api/nowhere');
    };
    expect(typeOnly).toBeTypeOf('function');
  });
});
