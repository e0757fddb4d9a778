import type { TAnswerOf, TBodyOf, TConsoleCall } from '@air/shared/api';
import type { TErrorBodySeen } from '@air/shared/schemas/common';
import { storedLocale } from '@/lib/i18n';

export const TOKEN_STORAGE_KEY = 'air.token';

/** A failed call. `status` is 0 when no response arrived (network down, server gone). */
export class ApiError extends Error {
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

type TPathOf<K extends string> = K extends `${string} ${infer Path}` ? Path : never;
type TParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | TParamNames<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The `GET` calls of the table. */
export type TGetCall = Extract<TConsoleCall, `GET ${string}`>;
/** The writes of the table (what a form sends). */
export type TWriteCall = Exclude<TConsoleCall, TGetCall>;
/** The `data` of a call's success envelope. */
export type TDataOf<K extends TConsoleCall> = TAnswerOf<K> extends { data: infer D } ? D : never;

/**
 * What a call takes besides its name: a value for each `:param` of its path (a list is joined by
 * commas, each part encoded), the request body the server declares (required when it declares
 * one), a query string and an abort signal.
 */
export type TCallOptions<K extends TConsoleCall> = ([TParamNames<TPathOf<K>>] extends [never]
  ? { params?: undefined }
  : { params: Record<TParamNames<TPathOf<K>>, string | readonly string[]> }) &
  ([TBodyOf<K>] extends [undefined] ? { body?: undefined } : { body: TBodyOf<K> }) & {
    query?: string | URLSearchParams;
    signal?: AbortSignal;
  };
type TCallArgs<K extends TConsoleCall> =
  Record<never, never> extends TCallOptions<K> ? [options?: TCallOptions<K>] : [options: TCallOptions<K>];

/** The URL of a call: its path with the params filled in, then the query (when not empty). */
export function callUrl(
  name: TConsoleCall,
  params?: Record<string, string | readonly string[]>,
  query?: string | URLSearchParams,
) {
  const path = name.slice(name.indexOf(' ') + 1).replace(/:(\w+)/g, (_, param: string) => {
    const value = params?.[param] ?? '';
    return typeof value === 'string' ? encodeURIComponent(value) : value.map(encodeURIComponent).join(',');
  });
  const search = query?.toString() ?? '';
  return search ? `${path}?${search}` : path;
}

/**
 * One call of the console API by its name in the shared table (`"GET /api/key/:id"`): the body is
 * checked against the request the server declares and the answer has the shape the server
 * declares for that route, so no caller picks the type of what comes back.
 */
export function call<K extends TConsoleCall>(name: K, ...[options]: TCallArgs<K>): Promise<TAnswerOf<K>> {
  const { params, body, query, signal } = (options ?? {}) as {
    params?: Record<string, string | readonly string[]>;
    body?: unknown;
    query?: string | URLSearchParams;
    signal?: AbortSignal;
  };
  const method = name.slice(0, name.indexOf(' ')) as THttpMethod;
  // As the `api` helpers below: a write without a body sends `{}`, except DELETE.
  const payload = method === 'GET' ? undefined : method === 'DELETE' ? body : (body ?? {});
  return apiRequest(method, callUrl(name, params, query), payload, { signal }) as Promise<TAnswerOf<K>>;
}

/** The path parameters of a call, by name (a list is joined by commas). */
export type TParamsOf<K extends TConsoleCall> = [TParamNames<TPathOf<K>>] extends [never]
  ? undefined
  : Record<TParamNames<TPathOf<K>>, string | readonly string[]>;

/**
 * A call whose body a form built: the form engine's values are a field map that the form's schema
 * (the call's own request schema) has checked, and may be multipart (`FormData`) when a field
 * holds files, so the body is not typed here; the name, the parameters and the answer are.
 */
export function submitCall<K extends TConsoleCall>(
  name: K,
  body: unknown,
  params?: Record<string, string | readonly string[]>,
): Promise<TAnswerOf<K>> {
  return call(name, { params, body } as TCallOptions<K>);
}

/** The `message` of a success answer, when it has one (the forms show it as a notification). */
export function answerMessage(answer: unknown): string | undefined {
  const message =
    answer && typeof answer === 'object' ? (answer as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : undefined;
}
