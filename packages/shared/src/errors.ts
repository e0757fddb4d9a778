/**
 * The one error vocabulary of the console API: code -> HTTP status -> i18n message key.
 *
 * The server throws `new AppError('not_found')`; its error handler looks the code up here for the
 * status and renders the localised message of `messageKey` (catalogs in apps/server/src/i18n).
 * Add specific codes below as features need them (e.g. `email_taken: { status: 409, messageKey:
 * 'error.email_taken' }`) and add the message key to both server catalogs; a test checks that
 * every key here exists in English and Spanish.
 */
export interface TErrorDefinition {
  status: number;
  messageKey: string;
}

export const ERRORS = {
  validation: { status: 400, messageKey: 'error.validation' },
  bad_request: { status: 400, messageKey: 'error.bad_request' },
  invalid_json: { status: 400, messageKey: 'error.invalid_json' },
  unsupported_media_type: { status: 400, messageKey: 'error.unsupported_media_type' },
  unauthenticated: { status: 401, messageKey: 'error.unauthenticated' },
  payment_required: { status: 402, messageKey: 'error.payment_required' },
  forbidden: { status: 403, messageKey: 'error.forbidden' },
  not_found: { status: 404, messageKey: 'error.not_found' },
  method_not_allowed: { status: 405, messageKey: 'error.method_not_allowed' },
  conflict: { status: 409, messageKey: 'error.conflict' },
  payload_too_large: { status: 413, messageKey: 'error.payload_too_large' },
  rate_limited: { status: 429, messageKey: 'error.rate_limited' },
  internal: { status: 500, messageKey: 'error.internal' },
  service_unavailable: { status: 503, messageKey: 'error.service_unavailable' },
} as const satisfies Record<string, TErrorDefinition>;

export type TErrorCode = keyof typeof ERRORS;

export function isErrorCode(value: unknown): value is TErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}
