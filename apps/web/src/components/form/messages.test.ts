import { describe, expect, it } from 'vitest';
import en from '@/locales/en/form.json';
import es from '@/locales/es/form.json';

function flatten(obj: Record<string, unknown>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object')
      Object.assign(out, flatten(value as Record<string, unknown>, path));
    else out[path] = String(value);
  }
  return out;
}

describe('form messages', () => {
  // The validation texts equal the server's word for word: apps/server/test/rule-set.test.ts.
  it("carries the spec's literal messages", () => {
    expect(en.validation).toMatchObject({
      name_required: 'Please enter your name',
      email_required: 'Please enter your email address',
      key_name_required: 'Please provide a descriptive name for your key',
      key_scope_required: 'Please select at least one scope',
      support_message_required: 'Please enter a message',
      close_account_password: 'Please enter your password to confirm your account deletion',
      password_complex: 'Password must contain at least one special character',
      required: '{{field}} is required',
    });
  });

  it('Spanish has every English key, with the same placeholders', () => {
    const flatEn = flatten(en);
    const flatEs = flatten(es);
    expect(Object.keys(flatEs).sort()).toEqual(Object.keys(flatEn).sort());
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(flatEn))
      expect(placeholders(flatEs[key]!), key).toEqual(placeholders(text));
  });
});
