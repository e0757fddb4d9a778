import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { TAnswerOf, TConsoleCall } from '@air/shared/api';
import type { TErrorBodySeen } from '@air/shared/schemas/common';

/**
 * The console's network in tests: Mock Service Worker answers the real `fetch` calls, from a table
 * keyed by the call names of `@air/shared/api` (`"GET /api/key/:id"`). A success answer must have
 * the shape the server declares for that call, so a mock the server would never send does not
 * type-check; an error answer is the console API's `{ message, inputError? }`.
 */
export const apiServer = setupServer();

export type TErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 502 | 503 | 599;
export interface TOkReply<K extends TConsoleCall> {
  status?: 200 | 201;
  body: TAnswerOf<K>;
}
export interface TErrorReply {
  status: TErrorStatus;
  body?: TErrorBodySeen;
}
export type TReply<K extends TConsoleCall> = TOkReply<K> | TErrorReply;

/** A call as the mocked server saw it. */
export interface TSeenCall {
  method: string;
  url: URL;
  body: unknown;
  headers: Headers;
}

type TAnswer = { status?: number; body?: unknown };
type TResolver = (call: TSeenCall) => TAnswer | Promise<TAnswer>;

/**
 * Serves `table` (call name → resolver) for the current test, records every call in order (as
 * `record` shapes it), and answers anything else with `fallback` (the caller's "not found").
 */
export function serveApi<TRecord = TSeenCall>(
  table: Partial<Record<TConsoleCall, TResolver>>,
  fallback: TResolver,
  record: (call: TSeenCall) => TRecord = (call) => call as TRecord,
): TRecord[] {
  const calls: TRecord[] = [];
  const see = async (request: Request): Promise<TSeenCall> => {
    const text = await request.clone().text();
    const call = {
      method: request.method,
      url: new URL(request.url),
      body: text ? (JSON.parse(text) as unknown) : undefined,
      headers: request.headers,
    };
    calls.push(record(call));
    return call;
  };
  const respond = ({ status = 200, body }: { status?: number; body?: unknown }) =>
    body === undefined ? new HttpResponse(null, { status }) : HttpResponse.json(body as object, { status });
  const handlers = Object.entries(table).map(([name, resolve]) => {
    const [method, path] = name.split(' ') as [string, string];
    const on = http[method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'];
    return on(path, async ({ request }) => respond(await resolve!(await see(request))));
  });
  apiServer.resetHandlers(
    ...handlers,
    http.all('*', async ({ request }) => respond(await fallback(await see(request)))),
  );
  return calls;
}
