import { z } from 'zod';
import { ERRORS, type TErrorCode } from './errors';

/**
 * The shape of one entry of the console's call table (api.ts, decision 051): everything the wire
 * carries for a call, in one place, read by the server (route registration and validation), the
 * API document and the console's client. A new field goes here, once, and every reader sees it.
 */
export interface TCall {
  /** The path's `:name` segments as one strict object (required when the path has any). */
  params?: z.ZodType;
  /** The query string, a strict object; a call without one takes no query parameter at all. */
  query?: z.ZodType;
  /** The request body. */
  body?: z.ZodType;
  /** The success answer. */
  response: z.ZodType;
  /** The success status when it is not 200. */
  status?: 201;
  /**
   * The refusals the call answers besides every call's own (`errorsOf`): a conflict, a payment
   * the plan needs, a refused card... `public: true` says it needs no session (no 401 / 403).
   */
  errors?: readonly TErrorCode[];
  public?: true;
}

/** The query of a call that takes none: any parameter is refused (400, `inputError` names it). */
export const ZNoQuery = z.strictObject({});

/** The path of a call name (`"GET /api/key/:id"` → `/api/key/:id`). */
export type TPathOf<K extends string> = K extends `${string} ${infer Path}` ? Path : never;
/** The `:name` segments of a path. */
export type TParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | TParamNames<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * The calls of a table whose path has `:params` that its entry does not declare (or declares
 * under other names): `never` when every one does. The table asserts it is `never`.
 */
export type TUndeclaredParams<T extends Record<string, TCall>> = {
  [K in keyof T & string]: [TParamNames<TPathOf<K>>] extends [never]
    ? T[K] extends { params: z.ZodType }
      ? K
      : never
    : T[K] extends { params: z.ZodType<Record<TParamNames<TPathOf<K>>, unknown>> }
      ? [Exclude<keyof z.output<T[K]['params']>, TParamNames<TPathOf<K>>>] extends [never]
        ? never
        : K
      : K;
}[keyof T & string];

/**
 * Every console call may answer these: a bad input, and too many tries (the sign-in family's
 * attempt limits, and the unknown-key limit every call behind a key or session meets).
 */
const EVERY_CALL: readonly TErrorCode[] = ['validation', 'rate_limited'];
/** ... and every call behind a session these. */
const SIGNED_IN: readonly TErrorCode[] = ['unauthenticated', 'forbidden'];

/**
 * The error answers of a call, by status, as the API document lists them: a bad input (every call
 * validates at least its query), 401/403 unless public, 404 when its path names something, 413
 * when it takes a body, and the entry's own. Each answers the one error body (`ZErrorBody`).
 */
export function errorStatusesOf(name: string, entry: TCall): number[] {
  const codes = new Set<TErrorCode>([
    ...EVERY_CALL,
    ...(entry.public ? [] : SIGNED_IN),
    ...(name.includes('/:') ? (['not_found'] as const) : []),
    ...(entry.body ? (['payload_too_large'] as const) : []),
    ...(entry.errors ?? []),
  ]);
  return [...new Set([...codes].map((code) => ERRORS[code].status))].sort((a, b) => a - b);
}
