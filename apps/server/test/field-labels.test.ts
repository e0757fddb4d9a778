import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONSOLE_API } from '@air/shared/api';
import type { TCall } from '@air/shared/api-call';
import { validationErrorOf } from '../src/core/error-handler';
import { hasSpanishLabel } from '../src/i18n/field-labels';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, createActor, type TActor } from './support/actors';

/**
 * The top-level fields of every request body, path and query of the call table (each branch of a
 * union too): each can be the `inputError` of a refusal (decision 051).
 */
function bodyFields(): Set<string> {
  const names = new Set<string>();
  for (const spec of Object.values(CONSOLE_API) as TCall[]) {
    for (const schema of [spec.body, spec.params, spec.query]) {
      if (schema) for (const name of fieldsOf(schema)) names.add(name);
    }
  }
  return names;
}

function fieldsOf(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
    anyOf?: { properties?: Record<string, unknown> }[];
  };
  return [json, ...(json.anyOf ?? [])].flatMap((part) => Object.keys(part.properties ?? {}));
}

describe('validation messages name the field in the caller’s language', () => {
  let t: TTestApp;
  let owner: TActor;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createActor(t.app);
    t.app.get('/api/test/field-label', { schema: { hide: true } }, async () => {
      throw validationErrorOf({
        code: 'too_small',
        origin: 'string',
        minimum: 8,
        path: ['config', 'password'],
      });
    });
  });
  afterAll(() => t?.close());

  const create = (locale: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/aiendpoint',
      headers: { ...bearer(owner.token), 'accept-language': locale },
      payload,
    });

  it('a field refused by its route schema: Spanish label in Spanish, English in English', async () => {
    const es = await create('es', { route_endpoint: 'http://a.b/' });
    expect(es.statusCode).toBe(400);
    expect(es.json()).toEqual({
      code: 'validation',
      message: 'Nombre de la ruta es obligatorio',
      inputError: 'route_name',
    });
    const en = await create('en', { route_endpoint: 'http://a.b/' });
    expect(en.json().message).toBe('Route name is required');
  });

  it('a refusal raised by a service (validationErrorOf) and a nested field, by its last name', async () => {
    // The service builds its AppError before it knows the caller's language: the label is chosen
    // when the answer is sent.
    const es = await t.app.inject({ url: '/api/test/field-label', headers: { 'accept-language': 'es' } });
    expect(es.statusCode).toBe(400);
    expect(es.json()).toEqual({
      code: 'validation',
      message: 'Contraseña debe tener al menos 8 caracteres',
      inputError: 'config.password',
    });
    const en = await t.app.inject({ url: '/api/test/field-label' });
    expect(en.json().message).toBe('Password must be at least 8 characters');
  });

  it('every body, path and query field of the call table has a Spanish label', () => {
    const fields = bodyFields();
    expect(fields.size).toBeGreaterThan(40);
    expect([...fields].filter((name) => !hasSpanishLabel(name))).toEqual([]);
  });
});
