import { describe, expect, it } from 'vitest';
import { VALIDATION_MESSAGES_EN } from '@air/shared/validation';
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
  it('the English catalogue matches the shared validation messages word for word', () => {
    const flat = flatten(en);
    for (const [key, text] of Object.entries(VALIDATION_MESSAGES_EN)) expect(flat[key], key).toBe(text);
  });

  it('Spanish has every English key', () => {
    expect(Object.keys(flatten(es)).sort()).toEqual(Object.keys(flatten(en)).sort());
  });
});
