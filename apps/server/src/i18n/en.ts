/**
 * English messages of the server (errors, validation, mails). Keys are flat strings; `{name}`
 * placeholders are filled by `t()`. Spanish (es.ts) must hold exactly the same keys: the type
 * checker enforces it.
 */
export const en = {
  'error.validation': 'Please check the highlighted field',
  'error.bad_request': 'The request could not be understood',
  'error.invalid_json': 'The request body is not valid JSON',
  'error.unsupported_media_type': 'The request body must be JSON',
  'error.unauthenticated': 'Please sign in to continue',
  'error.payment_required': 'Please upgrade your plan to continue',
  'error.forbidden': 'You do not have permission to do that',
  'error.not_found': 'Not found',
  'error.method_not_allowed': 'Method not allowed',
  'error.conflict': 'This already exists',
  'error.payload_too_large': 'The request is too large',
  'error.rate_limited': 'Too many requests, please try again later',
  'error.internal': 'Something went wrong',
  'error.service_unavailable': 'The service is temporarily unavailable',

  'validation.required': '{field} is required',
  'validation.invalid': '{field} is invalid',
  'validation.cursor': 'This page link is no longer valid: start from the first page',
  'validation.unknown_field': '{field} is not an allowed field',
  'validation.too_short': '{field} must be at least {minimum} characters',
  'validation.too_long': '{field} must be at most {maximum} characters',
  'validation.too_small': '{field} must be at least {minimum}',
  'validation.too_big': '{field} must be at most {maximum}',
  'validation.too_few': '{field} must have at least {minimum} items',
  'validation.too_many': '{field} must have at most {maximum} items',
  'validation.invalid_email': 'Please enter a valid email address',
  'validation.invalid_url': 'Please enter a valid URL',
  'validation.invalid_format': '{field} has an invalid format',
  'validation.invalid_option': '{field} must be one of the allowed values',
  'validation.not_a_number': 'Please enter a valid number',
  'validation.old_password_required': 'Please enter your current password',
  'validation.otp_length': 'Please enter the 6-character code',
  'validation.spend_limit': 'Enter an amount from 0 to 1,000,000.00, with at most 2 decimals',
  'validation.body_required': 'A request body is required',
  'validation.body_object': 'The request body must be a JSON object',
} as const;

export type TMessageKey = keyof typeof en;
