import { describe, expect, it } from 'vitest';
import {
  FIELD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  VALIDATION_MESSAGES_EN,
  ZEmailAddress,
  ZNewPassword,
  ZOtpCode,
  formatValidationMessage,
  isAcceptedType,
  isComplexPassword,
  isEmail,
  isIsoDate,
  isNumber,
  isPhone,
  isUrl,
  validateField,
  validationMessageEn,
  type TFieldRules,
} from './validation';

const file = (name: string, type: string) => ({ name, type });

describe('patterns', () => {
  it('email', () => {
    for (const ok of ['a@b.co', 'first.last+tag@mail.example.com']) expect(isEmail(ok), ok).toBe(true);
    for (const bad of ['', 'a', 'a@', 'a@b', '@b.co', 'a b@c.co', 'a@b.c'])
      expect(isEmail(bad), bad).toBe(false);
  });

  it('number: optional minus, digits, optional decimal part', () => {
    for (const ok of ['0', '42', '-7', '3.14', '-0.5']) expect(isNumber(ok), ok).toBe(true);
    for (const bad of ['', '-', '1.', '.5', '+1', '1e3', '1,5', 'abc'])
      expect(isNumber(bad), bad).toBe(false);
  });

  it('phone: optional plus then 7-15 digits with optional single spaces', () => {
    for (const ok of ['1234567', '+441234567890', '+44 20 7946 0958', '123456789012345'])
      expect(isPhone(ok), ok).toBe(true);
    for (const bad of [
      '123456',
      '1234567890123456',
      '+44  20 7946 0958',
      '++1234567',
      ' 1234567',
      '12-34-567',
    ])
      expect(isPhone(bad), bad).toBe(false);
  });

  it('url: optional scheme, optional www, a domain, optional path or query', () => {
    for (const ok of [
      'example.com',
      'www.example.com',
      'https://example.com',
      'http://www.example.com/path/to?q=1',
      'ftp://files.example.org/a.txt',
      'smtp://mail.example.com',
      'http://localhost:8080/v1',
      'http://127.0.0.1:3000/api/v1',
    ])
      expect(isUrl(ok), ok).toBe(true);
    for (const bad of [
      '',
      'example',
      'gopher://example.com',
      'http://',
      'https://exa mple.com',
      'javascript:alert(1)',
    ])
      expect(isUrl(bad), bad).toBe(false);
  });

  it('complex password needs a special punctuation character', () => {
    expect(isComplexPassword('password1')).toBe(false);
    for (const ok of ['password!', 'pa$$', 'x.y', 'a_b', 'q{']) expect(isComplexPassword(ok), ok).toBe(true);
    expect(PASSWORD_MIN_LENGTH).toBe(8);
  });

  it('ISO dates', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('26-2-3')).toBe(false);
  });

  it('accepted MIME types, exact and by family', () => {
    expect(isAcceptedType('image/png', ['image/png'])).toBe(true);
    expect(isAcceptedType('image/jpeg', 'image/*')).toBe(true);
    expect(isAcceptedType('application/pdf', ['image/*', 'text/csv'])).toBe(false);
    expect(isAcceptedType('application/pdf', undefined)).toBe(true);
  });
});

describe('validateField', () => {
  const v = (field: TFieldRules, value: unknown) => validateField(field, value);

  it('required, with the label in params', () => {
    expect(v({ type: 'text', required: true, label: 'Name' }, '')).toEqual({
      key: 'form.required',
      params: { label: 'Name' },
    });
    expect(v({ type: 'text', required: true, label: 'Name' }, '   ')?.key).toBe('form.required');
    expect(v({ type: 'text', required: true }, undefined)?.key).toBe('form.required');
    expect(v({ type: 'text' }, '')).toBeNull();
    expect(v({ type: 'text', required: true }, 'Ada')).toBeNull();
  });

  it('errorMessage overrides, carried as message', () => {
    expect(v({ type: 'text', required: true, errorMessage: FIELD_MESSAGES.nameRequired }, '')).toEqual({
      key: 'form.required',
      params: { label: undefined },
      message: 'Please enter your name',
    });
  });

  it('removed and hidden fields never fail', () => {
    expect(v({ type: null, required: true }, '')).toBeNull();
    expect(v({ type: 'hidden', required: true }, '')).toBeNull();
  });

  it('number: valid, min, max, between', () => {
    expect(v({ type: 'number' }, 'abc')?.key).toBe('form.number.error.invalid');
    expect(v({ type: 'number', min: 2 }, '1')).toEqual({
      key: 'form.number.min',
      params: { min: 2, label: undefined },
    });
    expect(v({ type: 'number', max: 5 }, '6')).toEqual({
      key: 'form.number.max',
      params: { max: 5, label: undefined },
    });
    expect(v({ type: 'number', min: 1, max: 5 }, '9')?.key).toBe('form.number.between');
    expect(v({ type: 'number', min: 1, max: 5 }, '0')?.key).toBe('form.number.between');
    expect(v({ type: 'number', min: 1, max: 5 }, '3')).toBeNull();
    expect(v({ type: 'number' }, 7)).toBeNull();
  });

  it('min and max length', () => {
    expect(v({ type: 'text', minLength: 3, label: 'Name' }, 'ab')).toEqual({
      key: 'form.minLength',
      params: { minLength: 3, label: 'Name' },
    });
    expect(v({ type: 'textarea', maxLength: 3 }, 'abcd')?.key).toBe('form.maxLength');
    expect(v({ type: 'textarea', maxLength: 3 }, 'abc')).toBeNull();
  });

  it('email, url, phone via form.{type}.error.invalid', () => {
    expect(v({ type: 'email' }, 'nope')?.key).toBe('form.email.error.invalid');
    expect(v({ type: 'url' }, 'nope')?.key).toBe('form.url.error.invalid');
    expect(v({ type: 'phone' }, '12')?.key).toBe('form.phone.error.invalid');
    expect(v({ type: 'email' }, 'a@b.co')).toBeNull();
  });

  it('complex password', () => {
    expect(v({ type: 'password', validation: 'complexPassword' }, 'abcdefgh')?.key).toBe(
      'form.password.complex',
    );
    expect(v({ type: 'password', validation: 'complexPassword' }, 'abcdefg!')).toBeNull();
  });

  it('custom pattern, as RegExp or source string', () => {
    expect(v({ type: 'text', validation: /^[a-z]+$/ }, 'ABC')?.key).toBe('form.text.error.invalid');
    expect(v({ type: 'url', validation: '^https://' }, 'http://a.co')?.key).toBe('form.url.error.invalid');
    expect(v({ type: 'text', validation: '^[a-z]+$' }, 'abc')).toBeNull();
  });

  it('file: required, accepted types, excluded subtype', () => {
    expect(v({ type: 'file', required: true }, [])?.key).toBe('form.file.required');
    expect(v({ type: 'file', accept: ['image/png'] }, [file('a.pdf', 'application/pdf')])).toEqual({
      key: 'form.file.excluded',
      params: { type: 'pdf', label: undefined },
    });
    expect(v({ type: 'file', accept: ['image/*'] }, [file('a.png', 'image/png')])).toBeNull();
  });

  it('checkbox sets: min and max choices; single checkbox required means checked', () => {
    const options = ['a', 'b', 'c'].map((x) => ({ value: x, label: x }));
    expect(v({ type: 'checkbox', options, min: 2 }, ['a'])).toEqual({
      key: 'form.checkbox.min',
      params: { min: 2, label: undefined },
    });
    expect(v({ type: 'checkbox', options, min: 1 }, [])?.key).toBe('form.checkbox.min');
    expect(v({ type: 'checkbox', options, max: 2 }, ['a', 'b', 'c'])?.key).toBe('form.checkbox.max');
    expect(v({ type: 'checkbox', options }, ['z'])?.key).toBe('form.select.error.invalid');
    expect(v({ type: 'checkbox', options, required: true }, [])?.key).toBe('form.required');
    expect(v({ type: 'checkbox', options, min: 1, max: 2 }, ['a', 'c'])).toBeNull();
    expect(v({ type: 'checkbox', required: true }, false)?.key).toBe('form.required');
    expect(v({ type: 'checkbox', required: true }, true)).toBeNull();
  });

  it('select and radio accept only listed options', () => {
    const options = [{ value: 'agent', label: 'AI Agent' }];
    expect(v({ type: 'select', options }, 'other')?.key).toBe('form.select.error.invalid');
    expect(v({ type: 'radio', options }, 'agent')).toBeNull();
    expect(v({ type: 'select', options, required: true }, '')?.key).toBe('form.required');
  });

  it('otp is exactly six characters', () => {
    expect(v({ type: 'otp', required: true }, '12345')?.key).toBe('form.otp.error.invalid');
    expect(v({ type: 'otp', required: true }, '123456')).toBeNull();
    expect(v({ type: 'otp', validation: '^\\d+$' }, 'abcdef')?.key).toBe('form.otp.error.invalid');
  });

  it('date must be YYYY-MM-DD', () => {
    expect(v({ type: 'date' }, '2026/01/01')?.key).toBe('form.date.error.invalid');
    expect(v({ type: 'date', required: true }, '2026-01-01')).toBeNull();
  });

  it('card: null is empty, anything else is filled', () => {
    expect(v({ type: 'card', required: true }, null)?.key).toBe('form.required');
    expect(v({ type: 'card', required: true }, { complete: true })).toBeNull();
  });
});

describe('messages', () => {
  it('carries the spec literal messages', () => {
    expect(Object.values(FIELD_MESSAGES)).toEqual([
      'Please enter your name',
      'Please enter your email address',
      'Please provide a descriptive name for your key',
      'Please select at least one scope',
      'Please enter a message',
      'Please enter your first name',
      'Please enter your password to confirm your account deletion',
      'Password must contain at least one special character',
    ]);
    expect(VALIDATION_MESSAGES_EN['form.number.error.invalid']).toBe('Please enter a valid number');
  });

  it('formats with a "Field" label fallback', () => {
    expect(formatValidationMessage('{{label}} is required', {})).toBe('Field is required');
    expect(validationMessageEn({ key: 'form.required', params: { label: 'Email' } })).toBe(
      'Email is required',
    );
    expect(validationMessageEn({ key: 'form.number.between', params: { min: 1, max: 3 } })).toBe(
      'Please enter a value between 1 and 3',
    );
    expect(validationMessageEn({ key: 'form.required', message: 'Custom' })).toBe('Custom');
  });
});

describe('zod building blocks', () => {
  it('new password: length and complexity', () => {
    expect(ZNewPassword.safeParse('a!b').error?.issues[0]?.message).toBe(
      'Password must be at least 8 characters',
    );
    expect(ZNewPassword.safeParse('abcdefgh').error?.issues[0]?.message).toBe(FIELD_MESSAGES.passwordComplex);
    expect(ZNewPassword.safeParse('abcdefg!').success).toBe(true);
  });

  it('email normalised, otp exact length', () => {
    expect(ZEmailAddress.parse('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(ZEmailAddress.safeParse('nope').success).toBe(false);
    expect(ZOtpCode.safeParse('12345').success).toBe(false);
    expect(ZOtpCode.parse('123456')).toBe('123456');
  });
});
