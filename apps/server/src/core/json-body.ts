import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';
import { findNulPath, jsonDepthExceeds, MAX_JSON_DEPTH, mayContainNul } from '../lib/json-guard';
import { registerMessages } from '../i18n';
import { humanise } from './error-handler';

registerMessages({
  en: {
    'error.json_too_deep': 'The request body is nested too deeply (at most {max} levels)',
    'validation.nul_character': '{field} must not contain a NUL character',
  },
  es: {
    'error.json_too_deep': 'El cuerpo de la solicitud está demasiado anidado (como máximo {max} niveles)',
    'validation.nul_character': '{field} no puede contener un carácter NUL',
  },
});

function nulError(field: string): AppError {
  return new AppError('validation', {
    messageKey: 'validation.nul_character',
    inputError: field,
    params: { field: humanise(field) },
  });
}

/**
 * The console API's JSON parser, once for every route: a body nested deeper than 32 levels is a
 * 400 before it is parsed (recursive validators would overflow the stack), and U+0000 in any
 * string or key is a 400 naming the field (PostgreSQL refuses it in text). Fastify's own parser
 * (prototype-poisoning checks included) does the parsing. Query strings get the NUL check too.
 */
export function registerJsonBody(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepthExceeds(text)) {
      return done(
        new AppError('bad_request', { messageKey: 'error.json_too_deep', params: { max: MAX_JSON_DEPTH } }),
      );
    }
    parseJson(request, text, (error, value) => {
      if (error) return done(error);
      const field = mayContainNul(text) ? findNulPath(value) : null;
      if (field !== null) return done(nulError(field));
      done(null, value);
    });
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query) {
      for (const name in query) {
        const found = findNulPath(query[name], [name]);
        if (found !== null) return done(nulError(found));
      }
    }
    done();
  });
}
