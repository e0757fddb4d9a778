import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERRORS, type TErrorCode } from '@air/shared/errors';
import { describeIssue, type TIssueLike, type TIssueMessage } from '@air/shared/validation';
import { AppError, isAppError } from '../lib/app-error';
import { drainRequest } from '../lib/drain-request';
import { hasMessage, t, type TLocale } from '../i18n';
import { fieldLabel, humanise } from '../i18n/field-labels';

interface TValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

export { humanise };

/**
 * A described issue as the catalogs read it: a key they do not hold (a schema typo) still answers
 * a readable message, and the field's label is its name in the caller's language (English, the
 * humanised name, until sendAppError knows the language).
 */
function localisable({ field, key, params }: TIssueMessage, locale: TLocale = 'en') {
  const known = hasMessage(key) ? key : 'validation.invalid';
  const label = known === 'validation.unknown_field' ? field : fieldLabel(locale, field);
  return { key: known, inputError: field || undefined, params: { field: label, ...params } };
}

/**
 * The wire's `inputError` and a localised message for the first failing field of a validation.
 * The key comes from the shared `describeIssue`, the same function the console's forms use, so
 * a refused field reads the same in the console before sending and in the server's answer.
 */
function describeValidation(
  issue: TValidationIssue,
  locale: TLocale,
): { inputError?: string; message: string } {
  const { key, inputError, params } = localisable(
    describeIssue({
      ...issue.params,
      code: issue.keyword,
      path: issue.instancePath.replace(/^\//, '').split('/').filter(Boolean),
      message: issue.message,
    }),
    locale,
  );
  return { ...(inputError ? { inputError } : {}), message: t(locale, key, params) };
}

/**
 * A schema's refusal raised by a service that parses with a shared schema itself (the route
 * accepted a wider body): the same 400, field and message the error handler gives a body refused
 * by its route schema.
 */
export function validationErrorOf(issue: TIssueLike): AppError {
  const { key, inputError, params } = localisable(describeIssue(issue));
  return new AppError('validation', { messageKey: key, ...(inputError ? { inputError } : {}), params });
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

/**
 * A validation error built without the caller's language (validationErrorOf in a service) names
 * its field in English: the label is put in the caller's language here, where it is known.
 */
function paramsFor(error: AppError, locale: TLocale) {
  const field = error.inputError;
  if (error.code !== 'validation' || !field || error.params.field !== humanise(field)) return error.params;
  return { ...error.params, field: fieldLabel(locale, field) };
}

export function sendAppError(error: AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error.retryAfter !== undefined)
    reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfter))));
  return reply.status(error.statusCode).send({
    // The stable code clients branch on; an error that carries a more precise one of its own in
    // `extra` (a card refusal: the processor's `card_declined`, ...) keeps it.
    code: error.code,
    ...error.extra,
    message: t(request.locale, error.messageKey, paramsFor(error, request.locale)),
    ...(error.inputError ? { inputError: error.inputError } : {}),
  });
}

/**
 * The one error handler of the console API, every answer `{ code, message, inputError? }`:
 * AppError → its code, status and localised message;
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
      const first: TValidationIssue = error.validation![0]!;
      // A path parameter, a query parameter or a body field alike (decision 051): the call
      // table's schema refused it, and `inputError` names it.
      const { inputError, message } = describeValidation(first, request.locale);
      return reply
        .status(ERRORS.validation.status)
        .send({ code: 'validation', message, ...(inputError ? { inputError } : {}) });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // The 413 goes out once the client has finished sending (see drainRequest).
      return drainRequest(request.raw).then(() =>
        sendAppError(new AppError('payload_too_large'), request, reply),
      );
    }
    if (!isResponseSerializationError(error as never)) {
      const code = codeForFastifyError(error);
      if (code) return sendAppError(new AppError(code), request, reply);
    }
    request.log.error({ err: error }, 'request failed');
    return sendAppError(new AppError('internal'), request, reply);
  });
}
