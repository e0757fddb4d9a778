import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION_CASES } from '@air/shared/validation-cases';
import { humanise } from '../src/core/error-handler';
import { hasMessage, t as translate } from '../src/i18n';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, seedUser, signIn } from './identity-helpers';

/*
 * One rule set (issue 8): the shared case table that the console's forms run
 * (apps/web/src/components/form/rule-set.test.ts) goes through the real routes here. Same
 * verdict, same field, same message key (the server's answer is that key's text); and the
 * console's catalogue holds each validation key with the server's text, word for word.
 */

let t: TTestApp;
let auth: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ supportEmail: 'support@example.test' });
  await seedUser(t.app, { email: 'rules-owner@example.test', accountName: 'Rules' });
  auth = bearer((await signIn(t.app, 'rules-owner@example.test')).token);
});
afterAll(async () => t?.close());

describe('the server refuses exactly what the console refuses (shared case table)', () => {
  for (const c of VALIDATION_CASES) {
    it(c.name, async () => {
      const send = (locale: string) =>
        t.app.inject({
          method: c.method,
          url: c.url,
          payload: c.body,
          headers: { ...(c.signedIn ? auth : {}), 'accept-language': locale },
        });
      const res = await send('en');
      if (c.refused === null) {
        expect(res.statusCode, res.body).toBeLessThan(300);
        return;
      }
      const { field, key, params = {} } = c.refused;
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        inputError: field,
        message: translate('en', key, { field: humanise(field), ...params }),
      });
      // Spanish too: the message is the key's text in the caller's language.
      const es = await send('es');
      expect(es.json().message).toBe(translate('es', key, { field: humanise(field), ...params }));
    });
  }
});

describe("the console's validation messages are the server's", () => {
  const sample = { field: 'Xyz', minimum: 3, maximum: 9, name: 'N', max: 5, emails: 'a@b' };
  for (const locale of ['en', 'es'] as const) {
    it(`${locale}: every key of locales/${locale}/form.json "validation" reads as the server's text`, () => {
      const file = new URL(`../../web/src/locales/${locale}/form.json`, import.meta.url);
      const catalogue = (JSON.parse(readFileSync(file, 'utf8')) as { validation: Record<string, string> })
        .validation;
      expect(Object.keys(catalogue).length).toBeGreaterThan(20);
      for (const [name, text] of Object.entries(catalogue)) {
        const key = `validation.${name}`;
        expect(hasMessage(key), key).toBe(true);
        const console = text.replace(/\{\{(\w+)\}\}/g, (_, p: keyof typeof sample) => String(sample[p]));
        expect(console, key).toBe(translate(locale, key, sample));
      }
    });
  }
});
