import { LOCALES, type TLocale } from '@air/shared/schemas/common';
import { en } from './en';
import { es } from './es';

export { LOCALES, type TLocale };
export const DEFAULT_LOCALE: TLocale = 'en';

export type TParams = Record<string, string | number>;

const catalogs: Record<TLocale, Map<string, string>> = {
  en: new Map(Object.entries(en)),
  es: new Map(Object.entries(es)),
};

/**
 * Adds a feature's messages (e.g. a module's error texts or mail templates) without editing the
 * core catalogs: call it at the top level of the module's file. Both locales must hold the same
 * keys, and a key may be registered only once with different text, so drift fails loudly at start.
 */
export function registerMessages(messages: { en: Record<string, string>; es: Record<string, string> }): void {
  const enKeys = Object.keys(messages.en).sort();
  const esKeys = Object.keys(messages.es).sort();
  if (enKeys.join('\n') !== esKeys.join('\n')) {
    const missing = enKeys
      .filter((k) => !(k in messages.es))
      .concat(esKeys.filter((k) => !(k in messages.en)));
    throw new Error(`registerMessages: en and es differ on ${missing.join(', ')}`);
  }
  for (const locale of LOCALES) {
    for (const [key, text] of Object.entries(messages[locale])) {
      const existing = catalogs[locale].get(key);
      if (existing !== undefined && existing !== text)
        throw new Error(`registerMessages: ${key} is already defined`);
      catalogs[locale].set(key, text);
    }
  }
}

export function hasMessage(key: string): boolean {
  return catalogs.en.has(key);
}

/** Translates `key` into `locale` (English fallback), filling `{param}` placeholders. */
export function t(locale: TLocale | string, key: string, params: TParams = {}): string {
  const catalog =
    catalogs[(LOCALES as readonly string[]).includes(locale) ? (locale as TLocale) : DEFAULT_LOCALE];
  const text = catalog.get(key) ?? catalogs.en.get(key) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * Picks en or es from an Accept-Language header by quality order (`es-MX,es;q=0.9,en;q=0.8` → es);
 * anything else falls back to English.
 */
export function localeFromAcceptLanguage(header: string | undefined): TLocale {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...attrs] = part.trim().split(';');
      const q = attrs.map((a) => a.trim()).find((a) => a.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        lang: tag.trim().toLowerCase().split('-')[0] ?? '',
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const entry of ranked) {
    if ((LOCALES as readonly string[]).includes(entry.lang)) return entry.lang as TLocale;
  }
  return DEFAULT_LOCALE;
}
