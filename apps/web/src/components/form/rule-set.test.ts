import { describe, expect, it } from 'vitest';
import { VALIDATION_CASES } from '@air/shared/validation-cases';
import en from '@/locales/en/form.json';
import es from '@/locales/es/form.json';
import { fieldErrors } from './schema-validation';
import type { TFormFields, TSchemaLike } from './types';

/** Every field of the body as a plain form field (the rule set never reads the field's type). */
function fieldsOf(body: Record<string, unknown>): TFormFields {
  return Object.fromEntries(Object.keys(body).map((name) => [name, { type: 'text' as const }]));
}

describe('the console validates with the server rule set (shared case table)', () => {
  // The server runs the same table through its routes (apps/server/test/rule-set.test.ts).
  for (const c of VALIDATION_CASES) {
    it(c.name, () => {
      const errors = fieldErrors(c.schema as TSchemaLike, fieldsOf(c.body), c.body);
      if (c.refused === null) {
        expect(errors).toEqual({});
        return;
      }
      // The console shows a nested path's error on its top-level field (`config` for config.headers.x).
      const shownOn = c.refused.field.split('.')[0]!;
      expect(Object.keys(errors)).toEqual([shownOn]);
      expect(errors[shownOn]).toEqual({
        field: c.refused.field,
        key: c.refused.key,
        params: c.refused.params ?? {},
      });
    });
  }

  it('both console catalogues hold every message key the table names', () => {
    const keys = new Set(VALIDATION_CASES.flatMap((c) => (c.refused ? [c.refused.key] : [])));
    for (const key of keys) {
      const name = key.replace(/^validation\./, '');
      expect(en.validation, key).toHaveProperty(name);
      expect(es.validation, key).toHaveProperty(name);
    }
  });
});
