import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';
import type { TBadTextKey } from '@air/shared/validation';
import { findBadText, jsonDepthExceeds, MAX_JSON_DEPTH, mayHoldBadText } from '../lib/json-guard';
import { registerMessages } from '../i18n';
import { humanise } from './error-handler';

registerMessages({
  en: {
    'error.json_too_deep': 'The request body is nested too deeply (at most {max} levels)',
    'validation.nul_character': '{field} must not contain a NUL character',
    'validation.lone_surrogate': '{field} must be valid Unicode text (it holds an unpaired surrogate)',
  },
  es: {
    'error.json_too_deep': 'El cuerpo de la solicitud está demasiado anidado (como máximo {max} niveles)',
    'validation.nul_character': '{field} no puede contener un carácter NUL',
    'validation.lone_surrogate': '{field} debe ser texto Unicode válido (contiene un sustituto sin pareja)',
  },
});

function badTextError({ field, key }: { field: string; key: TBadTextKey }): AppError {
  return new AppError('validation', {
    messageKey: key,
    inputError: field,
    params: { field: humanise(field) },
  });
}

/**
 * The console API's JSON parser, once for every route: a body nested deeper than 32 levels is a
 * 400 before it is parsed (recursive validators would overflow the stack), and U+0000 or a lone
 * UTF-16 surrogate (`"\ud800"`) in any string or key is a 400 naming the field (PostgreSQL refuses
 * the one in text and the other in jsonb). Fastify's own parser
 * (prototype-poisoning checks included) does the parsing. Query strings get the same check.
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
      const bad = mayHoldBadText(text) ? findBadText(value) : null;
      if (bad !== null) return done(badTextError(bad));
      done(null, value);
    });
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query) {
      for (const name in query) {
        const found = findBadText(query[name], [name]);
        if (found !== null) return done(badTextError(found));
      }
    }
    done();
  });
}
