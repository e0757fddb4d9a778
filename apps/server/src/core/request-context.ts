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

/**
 * Echoes the request id, names the instance (INSTANCE_NAME, `x-air-instance`: which one answered
 * behind a balancer) and resolves the request's locale before anything else runs.
 */
export function registerRequestContext(app: FastifyInstance) {
  app.decorateRequest('locale', 'en');
  const instance = app.config.instanceName;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // On the raw response: the gateway's hijacked answers write their own head, which Node merges.
    if (instance) reply.raw.setHeader('x-air-instance', instance);
    request.locale = localeFromAcceptLanguage(request.headers['accept-language']);
    done();
  });
}
