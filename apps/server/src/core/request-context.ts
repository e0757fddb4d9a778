import { randomUUID } from 'node:crypto';
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify';
import { localeFromAcceptLanguage, type TLocale } from '../i18n';

declare module 'fastify' {
  interface FastifyRequest {
    /** en or es, from Accept-Language (English fallback). */
    locale: TLocale;
  }
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a caller's `x-request-id` when it is short and plain, otherwise makes a new one. */
export function genReqId(req: RawRequestDefaultExpression): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Echoes the request id and resolves the request's locale before anything else runs. */
export function registerRequestContext(app: FastifyInstance) {
  app.decorateRequest('locale', 'en');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    request.locale = localeFromAcceptLanguage(request.headers['accept-language']);
    done();
  });
}
