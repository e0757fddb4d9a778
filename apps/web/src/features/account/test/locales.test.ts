import { describe, expect, it } from 'vitest';
import enAccount from '@/locales/en/account.json';
import esAccount from '@/locales/es/account.json';
import enBilling from '@/locales/en/billing.json';
import esBilling from '@/locales/es/billing.json';
import enOnboarding from '@/locales/en/onboarding.json';
import esOnboarding from '@/locales/es/onboarding.json';
import enSignup from '@/locales/en/signup.json';
import esSignup from '@/locales/es/signup.json';

function keys(value: unknown, prefix = ''): string[] {
  if (!value || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return value && typeof value === 'object' ? Object.values(value).flatMap(texts) : [];
}

describe.each([
  ['account', enAccount, esAccount],
  ['billing', enBilling, esBilling],
  ['onboarding', enOnboarding, esOnboarding],
  ['signup', enSignup, esSignup],
])('the %s namespace', (_name, en, es) => {
  it('has the same keys in English and Spanish', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the same placeholders and leaves no Spanish text empty', () => {
    const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
    const enTexts = texts(en);
    const esTexts = texts(es);
    esTexts.forEach((text, i) => {
      expect(text.trim()).not.toBe('');
      expect(placeholders(text)).toEqual(placeholders(enTexts[i] ?? ''));
    });
  });
});
