import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERRORS, type TErrorCode } from '@air/shared/errors';
import { AppError, isAppError } from '../lib/app-error';
import { hasMessage, t, type TLocale } from '../i18n';

interface TValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `route_name` → `Route name`: the label used in generic validation messages. */
function humanise(field: string): string {
  const last = field.split('.').pop() ?? field;
  const words = last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Field';
}

/** The wire's `inputError` and a localised message for the first failing field of a validation. */
function describeValidation(
  issue: TValidationIssue,
  locale: TLocale,
): { inputError?: string; message: string } {
  const params = issue.params;
  let field = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  if (issue.keyword === 'unrecognized_keys' && Array.isArray(params.keys) && params.keys.length > 0) {
    field = [field, String(params.keys[0])].filter(Boolean).join('.');
    return { inputError: field, message: t(locale, 'validation.unknown_field', { field }) };
  }
  const label = humanise(field);
  const withField = (key: string, extra: Record<string, string | number> = {}) => ({
    ...(field ? { inputError: field } : {}),
    message: t(locale, key, { field: label, ...extra }),
  });
  // A schema's own message that is a catalog key wins (e.g. 'validation.password_complex').
  if (issue.message && hasMessage(issue.message)) return withField(issue.message);
  if (!field && issue.keyword === 'invalid_type') {
    const missing = /received (undefined|null)/.test(issue.message ?? '');
    return { message: t(locale, missing ? 'validation.body_required' : 'validation.body_object') };
  }
  const origin = String(params.origin ?? '');
  switch (issue.keyword) {
    case 'invalid_type':
      if (/received (undefined|null)/.test(issue.message ?? '')) return withField('validation.required');
      if (params.expected === 'number' || params.expected === 'int')
        return withField('validation.not_a_number');
      return withField('validation.invalid');
    case 'too_small': {
      const minimum = Number(params.minimum);
      if (origin === 'string')
        return withField(minimum <= 1 ? 'validation.required' : 'validation.too_short', { minimum });
      if (origin === 'array' || origin === 'set') return withField('validation.too_few', { minimum });
      return withField('validation.too_small', { minimum });
    }
    case 'too_big': {
      const maximum = Number(params.maximum);
      if (origin === 'string') return withField('validation.too_long', { maximum });
      if (origin === 'array' || origin === 'set') return withField('validation.too_many', { maximum });
      return withField('validation.too_big', { maximum });
    }
    case 'invalid_format':
      if (params.format === 'email') return withField('validation.invalid_email');
      if (params.format === 'url') return withField('validation.invalid_url');
      return withField('validation.invalid_format');
    case 'invalid_value':
      return withField('validation.invalid_option');
    default:
      return withField('validation.invalid');
  }
}

/** Fastify's own 4xx errors (body parsing, routing) mapped onto the error vocabulary. */
function codeForFastifyError(error: FastifyError): TErrorCode | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'invalid_json';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
  }
  const status = error.statusCode ?? 500;
  if (status >= 500 || status < 400) return undefined;
  if (error instanceof SyntaxError) return 'invalid_json';
  const byStatus: Partial<Record<number, TErrorCode>> = {
    401: 'unauthenticated',
    402: 'payment_required',
    403: 'forbidden',
    404: 'not_found',
    405: 'method_not_allowed',
    409: 'conflict',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    429: 'rate_limited',
  };
  return byStatus[status] ?? 'bad_request';
}

export function sendAppError(error: AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error.retryAfter !== undefined)
    reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfter))));
  return reply.status(error.statusCode).send({
    ...error.extra,
    message: t(request.locale, error.messageKey, error.params),
    ...(error.inputError ? { inputError: error.inputError } : {}),
  });
}

/**
 * The one error handler of the console API: AppError → its status and localised message;
 * validation → 400 with `inputError`; Fastify's own client errors → 4xx; anything else → 500
 * "Something went wrong" with the detail only in the log (which carries the request id).
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isAppError(error)) {
      if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, 'request failed');
      return sendAppError(error, request, reply);
    }
    if (
      hasZodFastifySchemaValidationErrors(error) ||
      (Array.isArray(error.validation) && error.validation.length > 0)
    ) {
      const first = error.validation![0] as unknown as TValidationIssue;
      const context = (error as { validationContext?: string }).validationContext;
      // Path and query parameters are not form fields: a bad id is simply "not found".
      if (context === 'params') return sendAppError(new AppError('not_found'), request, reply);
      const { inputError, message } = describeValidation(first, request.locale);
      return reply.status(ERRORS.validation.status).send({ message, ...(inputError ? { inputError } : {}) });
    }
    if (!isResponseSerializationError(error as never)) {
      const code = codeForFastifyError(error);
      if (code) return sendAppError(new AppError(code), request, reply);
    }
    request.log.error({ err: error }, 'request failed');
    return sendAppError(new AppError('internal'), request, reply);
  });
}
