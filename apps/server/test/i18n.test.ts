import { describe, expect, it } from 'vitest';
import { ERRORS } from '@air/shared/errors';
import { en } from '../src/i18n/en';
import { es } from '../src/i18n/es';
import { localeFromAcceptLanguage, registerMessages, t } from '../src/i18n';

describe('i18n', () => {
  it('has every error code message in English and Spanish', () => {
    for (const { messageKey } of Object.values(ERRORS)) {
      expect(en).toHaveProperty([messageKey]);
      expect(es).toHaveProperty([messageKey]);
    }
  });

  it('translates with parameters and falls back to English', () => {
    expect(t('es', 'validation.too_short', { field: 'Nombre', minimum: 3 })).toBe(
      'Nombre debe tener al menos 3 caracteres',
    );
    expect(t('fr', 'error.not_found')).toBe('Not found');
    expect(t('en', 'no.such.key')).toBe('no.such.key');
  });

  it('picks the locale from Accept-Language by quality', () => {
    expect(localeFromAcceptLanguage(undefined)).toBe('en');
    expect(localeFromAcceptLanguage('es-MX,es;q=0.9,en;q=0.8')).toBe('es');
    expect(localeFromAcceptLanguage('fr-FR,fr;q=0.9,es;q=0.5,en;q=0.4')).toBe('es');
    expect(localeFromAcceptLanguage('en;q=0.2,es;q=0.9')).toBe('es');
    expect(localeFromAcceptLanguage('de')).toBe('en');
  });

  it('lets a feature register messages and refuses drift between locales', () => {
    registerMessages({ en: { 'test.hello': 'Hello {name}' }, es: { 'test.hello': 'Hola {name}' } });
    expect(t('es', 'test.hello', { name: 'Ana' })).toBe('Hola Ana');
    expect(() => registerMessages({ en: { 'test.a': 'A' }, es: {} })).toThrow(/test\.a/);
    expect(() => registerMessages({ en: { 'test.hello': 'Other' }, es: { 'test.hello': 'Otro' } })).toThrow(
      /already defined/,
    );
  });
});
