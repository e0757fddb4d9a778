import type { TAnswerOf, TBodyOf, TConsoleCall, TParamsOf, TQueryOf } from '@air/shared/api';
import type { TErrorBodySeen } from '@air/shared/schemas/common';
import { storedLocale } from '@/lib/i18n';

export const TOKEN_STORAGE_KEY = 'air.token';

/** A failed call. `status` is 0 when no response arrived (network down, server gone). */
export class ApiError extends Error {
  /**
   * The path parameter the server refused (a 400 whose `inputError` is a `:param` of the call):
   * the thing the URL names cannot exist, which the console shows as not found.
   */
  pathParam?: string;

  constructor(
    public readonly status: number,
    public readonly body: TErrorBodySeen | string | null,
  ) {
    super(typeof body === 'object' && body?.message ? body.message : `Request failed (${status})`);
    this.name = 'ApiError';
  }
}

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function baseUrl(): string {
  return (import.meta.env.VITE_API_URL as string | undefined) ?? '';
}

/**
 * The one place the console speaks HTTP (not exported: every caller names a call of the shared
 * table). Every console call: bearer token and Accept-Language from the stored user, JSON in and out
 * (multipart when the body is FormData), `{ data, message }` back, ApiError on any failure.
 */
async function apiRequest(
  method: THttpMethod,
  url: string,
  body?: unknown,
  init: { signal?: AbortSignal } = {},
): Promise<unknown> {
  const headers: Record<string, string> = { 'Accept-Language': storedLocale(), Accept: 'application/json' };
  const token = localStorage.getItem(TOKEN_STORAGE_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let res: Response;
  try {
    res = await fetch(baseUrl() + url, { method, headers, body: payload, signal: init.signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, null);
  }
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) throw new ApiError(res.status, parsed as TErrorBodySeen | string | null);
  return parsed ?? {};
}

/** The `GET` calls of the table. */
export type TGetCall = Extract<TConsoleCall, `GET ${string}`>;
/** The writes of the table (what a form sends). */
export type TWriteCall = Exclude<TConsoleCall, TGetCall>;
/** The `data` of a call's success envelope. */
export type TDataOf<K extends TConsoleCall> = TAnswerOf<K> extends { data: infer D } ? D : never;

/** A value for each path parameter the call's entry declares (a list is joined by commas). */
export type TParamsFor<K extends TConsoleCall> =
  TParamsOf<K> extends undefined ? undefined : { [P in keyof TParamsOf<K>]: string | readonly string[] };

/**
 * What a call takes besides its name, each typed by its entry in the shared table: a value for
 * each path parameter, the query the server validates, the request body it declares (required
 * when it declares one) and an abort signal.
 */
export type TCallOptions<K extends TConsoleCall> = ([TParamsFor<K>] extends [undefined]
  ? { params?: undefined }
  : { params: TParamsFor<K> }) &
  ([TBodyOf<K>] extends [undefined] ? { body?: undefined } : { body: TBodyOf<K> }) &
  ([TQueryOf<K>] extends [undefined] ? { query?: undefined } : { query?: TQueryOf<K> }) & {
    signal?: AbortSignal;
  };
type TCallArgs<K extends TConsoleCall> =
  Record<never, never> extends TCallOptions<K> ? [options?: TCallOptions<K>] : [options: TCallOptions<K>];

type TQueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/** A query object as the URL carries it: absent (undefined, null) values left out, lists repeated. */
export function queryString(query: Record<string, TQueryValue> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else search.append(name, String(value));
  }
  return search.toString();
}

/** The URL of a call: its path with the params filled in, then the query (when not empty). */
export function callUrl(
  name: TConsoleCall,
  params?: Record<string, string | readonly string[]>,
  query?: Record<string, TQueryValue>,
) {
  const path = name.slice(name.indexOf(' ') + 1).replace(/:(\w+)/g, (_, param: string) => {
    const value = params?.[param] ?? '';
    return typeof value === 'string' ? encodeURIComponent(value) : value.map(encodeURIComponent).join(',');
  });
  const search = queryString(query);
  return search ? `${path}?${search}` : path;
}

/**
 * One call of the console API by its name in the shared table (`"GET /api/key/:id"`): its params,
 * query and body are checked against what the server declares for that route and the answer has
 * the shape the server declares, so no caller picks the type of what it sends or gets back.
 */
export function call<K extends TConsoleCall>(name: K, ...[options]: TCallArgs<K>): Promise<TAnswerOf<K>> {
  const { params, body, query, signal } = (options ?? {}) as {
    params?: Record<string, string | readonly string[]>;
    body?: unknown;
    query?: Record<string, TQueryValue>;
    signal?: AbortSignal;
  };
  const method = name.slice(0, name.indexOf(' ')) as THttpMethod;
  // A write without a body sends `{}`, except DELETE.
  const payload = method === 'GET' ? undefined : method === 'DELETE' ? body : (body ?? {});
  return apiRequest(method, callUrl(name, params, query), payload, { signal }).catch((error: unknown) => {
    const field =
      error instanceof ApiError && typeof error.body === 'object' ? error.body?.inputError : undefined;
    if (error instanceof ApiError && error.status === 400 && field && name.includes(`/:${field}`))
      error.pathParam = field;
    throw error;
  }) as Promise<TAnswerOf<K>>;
}

/**
 * The body a form sends for a call: the call's request body, or multipart (`FormData`) when a
 * field holds files.
 */
export type TFormBody<K extends TConsoleCall> = TBodyOf<K> | FormData;

/** A call whose body a form built (components/form/submit.ts); the name, params and answer are typed. */
export function submitCall<K extends TConsoleCall>(
  name: K,
  body: TFormBody<K>,
  params?: TParamsFor<K>,
): Promise<TAnswerOf<K>> {
  return call(name, { params, body } as TCallOptions<K>);
}

/** The `message` of a success answer, when it has one (the forms show it as a notification). */
export function answerMessage(answer: unknown): string | undefined {
  const message =
    answer && typeof answer === 'object' ? (answer as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : undefined;
}
