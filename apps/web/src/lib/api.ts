import { storedLocale } from '@/lib/i18n';

export const TOKEN_STORAGE_KEY = 'air.token';

export interface TApiErrorBody {
  message?: string;
  inputError?: string;
  plan?: string;
  [key: string]: unknown;
}

/** A failed call. `status` is 0 when no response arrived (network down, server gone). */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: TApiErrorBody | string | null,
  ) {
    super(typeof body === 'object' && body?.message ? body.message : `Request failed (${status})`);
    this.name = 'ApiError';
  }
}

export interface TApiResponse<T> {
  data?: T;
  message?: string;
  [key: string]: unknown;
}

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function baseUrl(): string {
  return (import.meta.env.VITE_API_URL as string | undefined) ?? '';
}

/**
 * Every console call: bearer token and Accept-Language from the stored user, JSON in and out
 * (multipart when the body is FormData), `{ data, message }` back, ApiError on any failure.
 */
export async function apiRequest<T = unknown>(
  method: THttpMethod,
  url: string,
  body?: unknown,
  init: { signal?: AbortSignal } = {},
): Promise<TApiResponse<T>> {
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
  if (!res.ok) throw new ApiError(res.status, parsed as TApiErrorBody | string | null);
  return (parsed ?? {}) as TApiResponse<T>;
}

export const api = {
  get: <T>(url: string, init?: { signal?: AbortSignal }) => apiRequest<T>('GET', url, undefined, init),
  post: <T>(url: string, body?: unknown) => apiRequest<T>('POST', url, body ?? {}),
  put: <T>(url: string, body?: unknown) => apiRequest<T>('PUT', url, body ?? {}),
  patch: <T>(url: string, body?: unknown) => apiRequest<T>('PATCH', url, body ?? {}),
  delete: <T>(url: string, body?: unknown) => apiRequest<T>('DELETE', url, body),
};
