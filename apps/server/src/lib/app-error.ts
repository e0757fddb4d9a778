import { ERRORS, type TErrorCode } from '@air/shared/errors';
import type { TParams } from '../i18n';

export interface TAppErrorOptions {
  /** The form field the message belongs to (`inputError` on the wire). */
  inputError?: string;
  /** Placeholders for the localised message. */
  params?: TParams;
  /** Extra top-level body fields, e.g. `{ plan: 'pro' }` on a 402. */
  extra?: Record<string, unknown>;
  /** Overrides the code's message key (e.g. a more specific text under the same status). */
  messageKey?: string;
  /** Seconds; sets `Retry-After` (429). */
  retryAfter?: number;
  cause?: unknown;
}

/**
 * The error services throw: the handler renders `{ message, inputError?, ...extra }` with the
 * status and localised message of the code in `@air/shared/errors`. Routes never build error bodies.
 */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly statusCode: number;
  readonly messageKey: string;
  readonly inputError: string | undefined;
  readonly params: TParams;
  readonly extra: Record<string, unknown>;
  readonly retryAfter: number | undefined;

  constructor(code: TErrorCode, options: TAppErrorOptions = {}) {
    super(code, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERRORS[code].status;
    this.messageKey = options.messageKey ?? ERRORS[code].messageKey;
    this.inputError = options.inputError;
    this.params = options.params ?? {};
    this.extra = options.extra ?? {};
    this.retryAfter = options.retryAfter;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
