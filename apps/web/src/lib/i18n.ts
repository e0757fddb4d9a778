import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

// Every JSON file under src/locales/<lng>/<namespace>.json is a namespace, bundled at build time so
// the first paint never waits on a catalogue request. Features own their namespace files.
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });

export const LOCALES = ['en', 'es'] as const;
export type TLocale = (typeof LOCALES)[number];
export const LOCALE_STORAGE_KEY = 'air.locale';

const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, mod] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  (resources[lng] ??= {})[ns] = mod.default;
}

export function storedLocale(): TLocale {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(LOCALE_STORAGE_KEY) : null;
  return stored === 'es' ? 'es' : 'en';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLocale(),
  fallbackLng: 'en',
  supportedLngs: LOCALES,
  defaultNS: 'common',
  ns: Object.keys(resources.en ?? { common: {} }),
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function setLocale(locale: TLocale) {
  localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  document.documentElement.lang = locale;
  void i18n.changeLanguage(locale);
}

export default i18n;
