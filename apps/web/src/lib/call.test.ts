import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { TApiKey } from '@air/shared/schemas/api-key';
import { ApiError, call, callUrl, submitCall } from './api';

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
    expect(callUrl('GET /api/account/activity', undefined, { page: 2, type: undefined })).toBe(
      '/api/account/activity?page=2',
    );
    expect(callUrl('GET /api/account/activity', undefined, {})).toBe('/api/account/activity');
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

  it('marks a refused path parameter, so the page shows not found', async () => {
    const refuse = (inputError: string) =>
      new Response(JSON.stringify({ code: 'validation', message: 'Id is invalid', inputError }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof globalThis.fetch>(async () => refuse('id')),
    );
    const error = await call('GET /api/key/:id', { params: { id: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).pathParam).toBe('id');
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof globalThis.fetch>(async () => refuse('name')),
    );
    const body = await call('POST /api/newitem', { body: { name: '' } }).catch((e: unknown) => e);
    expect((body as ApiError).pathParam).toBeUndefined();
  });

  it('sends a typed query, leaving out what is not set', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(
      async () => new Response(JSON.stringify({ data: { items: [], next_cursor: null } }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetch);
    await call('GET /api/marketplace', { query: { sort: 'newest', q: undefined, cursor: 'abc' } });
    expect(fetch.mock.calls[0]![0]).toBe('/api/marketplace?sort=newest&cursor=abc');
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
      // @ts-expect-error a body field the call does not declare
      void call('POST /api/newitem', { body: { name: 'x', colour: 'red' } });
      // @ts-expect-error a body where the call takes none
      void call('GET /api/key', { body: { name: 'x' } });
      // @ts-expect-error a path parameter under another name than the table's
      void call('GET /api/key/:id', { params: { key: 'x' } });
      // @ts-expect-error a query value the call's query schema does not take
      void call('GET /api/marketplace', { query: { sort: 'cheapest' } });
      // @ts-expect-error a query parameter the call does not take
      void call('GET /api/account/usage/log', { query: { page: 2 } });
      // @ts-expect-error a query on a call that takes none
      void call('GET /api/webhook', { query: { q: 'x' } });
      // @ts-expect-error a form's body is the call's body too
      void submitCall('POST /api/newitem', { title: 'x' });
    };
    expect(typeOnly).toBeTypeOf('function');
  });
});
