import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_MAX_ADDRESSES, ZInviteRequest } from '@air/shared/schemas/membership';
import { ZInvitedSignUpNew } from '@air/shared/schemas/user';
import { describeIssue, type TIssueLike } from '@air/shared/validation';
import { VALIDATION_CASES } from '@air/shared/validation-cases';
import { humanise } from '../src/core/error-handler';
import { fieldLabel } from '../src/i18n/field-labels';
import { hasMessage, t as translate } from '../src/i18n';
import { createTestApp, type TTestApp } from './helpers';
import { bearer, PASSWORD, seedUser, signIn } from './identity-helpers';
import { inviteToken } from './teams-helpers';

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
        code: 'validation',
        inputError: field,
        message: translate('en', key, { field: humanise(field), ...params }),
      });
      // Spanish too: the message is the key's text in the caller's language, the field's label too.
      const es = await send('es');
      expect(es.json().message).toBe(translate('es', key, { field: fieldLabel('es', field), ...params }));
    });
  }
});

/** The first issue of a shared schema's refusal, as both sides describe it; null when accepted. */
function verdict(
  schema: { safeParse(data: unknown): { success: boolean; error?: { issues: unknown[] } } },
  body: unknown,
) {
  const parsed = schema.safeParse(body);
  return parsed.success ? null : describeIssue(parsed.error!.issues[0] as TIssueLike);
}

// The console validates its invite field with the same ZInviteRequest (users/invite-dialog.ts).
describe('invite addresses: the shared ZInviteRequest refuses exactly what the server answers', () => {
  const many = Array.from({ length: INVITE_MAX_ADDRESSES + 1 }, (_, i) => `m${i}@x.io`);
  const long = `${'a'.repeat(243)}@example.com`; // 255 characters, the pattern would accept it
  const cases = [
    {
      name: 'bad addresses, named in the order given',
      email: 'good@x.io, nope, bad@, ok@x.io',
      body: '{"code":"validation","message":"These addresses are not valid: nope, bad@","inputError":"email"}',
      key: 'validation.invite_emails_invalid',
      params: { emails: 'nope, bad@' },
    },
    {
      name: 'an address over 254 characters',
      email: `ok@x.io\n${long}`,
      body: `{"code":"validation","message":"These addresses are not valid: ${long}","inputError":"email"}`,
      key: 'validation.invite_emails_invalid',
      params: { emails: long },
    },
    {
      name: `more than ${INVITE_MAX_ADDRESSES} addresses`,
      email: many.join(' '),
      body: '{"code":"validation","message":"Invite at most 50 addresses at once","inputError":"email"}',
      key: 'validation.invite_too_many',
      params: { max: INVITE_MAX_ADDRESSES },
    },
    {
      name: 'bad addresses are named before the count',
      email: [...many, 'nope'].join(','),
      body: '{"code":"validation","message":"These addresses are not valid: nope","inputError":"email"}',
      key: 'validation.invite_emails_invalid',
      params: { emails: 'nope' },
    },
    {
      name: 'no address at all',
      email: ' , ',
      body: '{"code":"validation","message":"Please enter at least one email address","inputError":"email"}',
      key: 'validation.invite_email_required',
      params: {},
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const body = { email: c.email, permission: 'user' };
      expect(verdict(ZInviteRequest, body)).toEqual({ field: 'email', key: c.key, params: c.params });
      const send = (locale: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/invite',
          payload: body,
          headers: { ...auth, 'accept-language': locale },
        });
      const res = await send('en');
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(c.body);
      const es = await send('es');
      expect(es.json()).toEqual({
        code: 'validation',
        inputError: 'email',
        message: translate('es', c.key, {
          field: humanise('email'),
          ...(c.params as Record<string, string | number>),
        }),
      });
    });
  }

  it(`${INVITE_MAX_ADDRESSES} addresses, repeated ones counted once, are accepted`, () => {
    const fifty = Array.from({ length: INVITE_MAX_ADDRESSES }, (_, i) => `m${i}@x.io`);
    expect(verdict(ZInviteRequest, { email: [...fifty, 'M0@x.io'].join('\n') })).toBeNull();
  });
});

describe('invited sign-up of a new address: the service parses with the shared ZInvitedSignUpNew', () => {
  const cases = [
    { name: 'no name', change: { name: undefined }, field: 'name', key: 'validation.name_required' },
    {
      name: 'no password',
      change: { password: undefined },
      field: 'password',
      key: 'validation.password_required',
    },
    {
      name: 'a short password',
      change: { password: 'Sh-1' },
      field: 'password',
      key: 'validation.password_min_length',
    },
    {
      name: 'a simple password',
      change: { password: 'Correcthorse1' },
      field: 'password',
      key: 'validation.password_complex',
    },
  ];
  for (const [i, c] of cases.entries()) {
    it(c.name, async () => {
      const email = `rule-set-invitee-${i}@example.test`;
      const invited = await t.app.inject({
        method: 'POST',
        url: '/api/invite',
        payload: { email },
        headers: auth,
      });
      expect(invited.statusCode, invited.body).toBe(200);
      const body = {
        name: 'Nia',
        email,
        password: PASSWORD,
        confirm_password: '',
        invite_id: await inviteToken(t.app, email),
        ...c.change,
      };
      expect(verdict(ZInvitedSignUpNew, body)).toEqual({ field: c.field, key: c.key, params: {} });
      for (const locale of ['en', 'es'] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/user',
          payload: body,
          headers: { 'accept-language': locale },
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({
          code: 'validation',
          inputError: c.field,
          message: translate(locale, c.key),
        });
      }
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
