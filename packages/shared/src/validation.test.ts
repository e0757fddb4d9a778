import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZEmailAddress, ZOtpCode } from './schemas/fields';
import { ZPasswordChange, ZStrongPassword } from './schemas/user';
import {
  PASSWORD_MIN_LENGTH,
  describeIssue,
  badTextKey,
  findBadText,
  isComplexPassword,
  isEmail,
  upstreamUrlProblem,
} from './validation';

/** The message key and params of the first issue of a failed parse. */
function firstIssue(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return null;
  return describeIssue(result.error.issues[0]!);
}

describe('patterns', () => {
  it('email', () => {
    for (const ok of ['a@b.co', 'first.last+tag@mail.example.com']) expect(isEmail(ok), ok).toBe(true);
    for (const bad of ['', 'a', 'a@', 'a@b', '@b.co', 'a b@c.co', 'a@b.c'])
      expect(isEmail(bad), bad).toBe(false);
  });

  it('complex password needs a special punctuation character', () => {
    expect(isComplexPassword('password1')).toBe(false);
    for (const ok of ['password!', 'pa$$', 'x.y', 'a_b', 'q{']) expect(isComplexPassword(ok), ok).toBe(true);
    expect(PASSWORD_MIN_LENGTH).toBe(8);
  });

  it('upstream URLs: absolute http(s) only, no credentials (ftp and smtp are refused)', () => {
    for (const ok of [
      'https://api.example.com/v1',
      'http://127.0.0.1:8080',
      'http://[::1]/x',
      ' https://a.io ',
    ])
      expect(upstreamUrlProblem(ok), ok).toBeNull();
    for (const bad of [
      'ftp://files.example.com',
      'smtp://mail.example.com',
      'example.com/v1',
      'https://',
      'file:///etc/passwd',
      'javascript:alert(1)',
    ])
      expect(upstreamUrlProblem(bad), bad).toBe('validation.route_endpoint_url');
    expect(upstreamUrlProblem('https://u:p@example.com')).toBe('validation.route_endpoint_credentials');
  });

  it('finds U+0000 and lone surrogates in strings and keys, with its path', () => {
    const nul = 'validation.nul_character';
    const lone = 'validation.lone_surrogate';
    expect(findBadText({ a: 'ok', b: ['x', 'y\0'] })).toEqual({ field: 'b.1', key: nul });
    expect(findBadText({ 'k\0ey': 1 })).toEqual({ field: 'key', key: nul });
    expect(findBadText('a\0', ['name'])).toEqual({ field: 'name', key: nul });
    expect(findBadText({ a: 'ok', n: 1, z: null })).toBeNull();
    expect(findBadText({ name: 'a\ud800' })).toEqual({ field: 'name', key: lone });
    expect(findBadText({ meta: { x: '\udc00b' } })).toEqual({ field: 'meta.x', key: lone });
    expect(findBadText({ meta: { ['k\udbffey']: 1 } })).toEqual({ field: 'meta.key', key: lone });
    expect(findBadText(['\udc00\ud800'])).toEqual({ field: '0', key: lone });
    // A pair is one character (an emoji), not a lone surrogate.
    expect(findBadText({ name: 'ok \ud83d\ude00 \u{1F600}' })).toBeNull();
    expect(badTextKey('\ud83d')).toBe(lone);
    expect(badTextKey('plain')).toBeNull();
  });
});

describe('describeIssue: one mapping from zod issue to message key, for server and console', () => {
  it("uses the schema's own key when it names one", () => {
    expect(firstIssue(ZStrongPassword, 'a!b')).toEqual({
      field: '',
      key: 'validation.password_min_length',
      params: {},
    });
    expect(firstIssue(ZStrongPassword, 'abcdefgh')?.key).toBe('validation.password_complex');
    expect(firstIssue(ZStrongPassword, 'abcdefg!')).toBeNull();
  });

  it('maps generic issues by code, with the bound as a parameter', () => {
    const body = z.strictObject({
      name: z.string().trim().min(1).max(5),
      code: z.string().min(3),
      tags: z.array(z.string()).min(1).max(2),
      count: z.number().int().min(2).max(9),
      kind: z.enum(['a', 'b']),
      site: z.url(),
      mail: z.email(),
    });
    const valid = {
      name: 'x',
      code: 'abc',
      tags: ['t'],
      count: 3,
      kind: 'a',
      site: 'https://a.io',
      mail: 'a@b.co',
    };
    const key = (change: Record<string, unknown>) => firstIssue(body, { ...valid, ...change });
    expect(key({})).toBeNull();
    expect(key({ name: ' ' })).toEqual({ field: 'name', key: 'validation.required', params: {} });
    expect(key({ name: 'abcdef' })).toEqual({
      field: 'name',
      key: 'validation.too_long',
      params: { maximum: 5 },
    });
    expect(key({ code: 'ab' })).toEqual({
      field: 'code',
      key: 'validation.too_short',
      params: { minimum: 3 },
    });
    expect(key({ tags: [] })?.key).toBe('validation.too_few');
    expect(key({ tags: ['a', 'b', 'c'] })?.key).toBe('validation.too_many');
    expect(key({ count: 1 })).toEqual({
      field: 'count',
      key: 'validation.too_small',
      params: { minimum: 2 },
    });
    expect(key({ count: 10 })?.key).toBe('validation.too_big');
    expect(key({ count: 'x' })?.key).toBe('validation.not_a_number');
    expect(key({ name: undefined })?.key).toBe('validation.required');
    expect(key({ kind: 'c' })?.key).toBe('validation.invalid_option');
    expect(key({ site: 'nope' })?.key).toBe('validation.invalid_url');
    expect(key({ mail: 'nope' })?.key).toBe('validation.invalid_email');
    expect(key({ extra: 1 })).toEqual({ field: 'extra', key: 'validation.unknown_field', params: {} });
    expect(firstIssue(body, undefined)?.key).toBe('validation.body_required');
    expect(firstIssue(body, 'text')?.key).toBe('validation.body_object');
  });

  it("a record key refused by its own schema reports that schema's key (header names)", () => {
    const headers = z.record(z.string().regex(/^[a-z-]+$/, { error: 'validation.header_name' }), z.string());
    expect(firstIssue(z.strictObject({ headers }), { headers: { 'bad name': 'x' } })).toEqual({
      field: 'headers.bad name',
      key: 'validation.header_name',
      params: {},
    });
  });

  it('an object-level rule names its field: the old password when the form says there is one', () => {
    expect(
      firstIssue(ZPasswordChange, { has_password: true, oldpassword: '', newpassword: 'abcdefg!' }),
    ).toEqual({
      field: 'oldpassword',
      key: 'validation.old_password_required',
      params: {},
    });
    expect(firstIssue(ZPasswordChange, { has_password: false, newpassword: 'abcdefg!' })).toBeNull();
  });
});

describe('zod building blocks', () => {
  it('email: normalised; empty is "required", anything else must look like an address', () => {
    expect(ZEmailAddress.parse('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(firstIssue(ZEmailAddress, '')?.key).toBe('validation.email_required');
    expect(firstIssue(ZEmailAddress, 'nope')?.key).toBe('validation.invalid_email');
  });

  it('otp: exactly six characters', () => {
    expect(firstIssue(ZOtpCode, '12345')?.key).toBe('validation.otp_length');
    expect(ZOtpCode.parse('123456')).toBe('123456');
  });
});
