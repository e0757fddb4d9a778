import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

// Every JSON file under src/locales/<lng>/<namespace>.json is a namespace, built as its own small
// chunk and loaded only for the language in use (plus English, the fallback) when first needed:
// `common` and `form` before the first render (see i18nReady), a feature's namespace when its page
// asks for it (useTranslation suspends meanwhile). The sign-in route thus carries neither every
// feature's catalogue nor the other language's.
const EAGER_NAMESPACES = ['common', 'form'];
const catalogueFiles = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

export const LOCALES = ['en', 'es'] as const;
export type TLocale = (typeof LOCALES)[number];
export const LOCALE_STORAGE_KEY = 'air.locale';

/** i18next backend reading the lazily bundled catalogues (a missing one is an empty namespace). */
const lazyCatalogues = {
  type: 'backend' as const,
  init() {},
  read(lng: string, ns: string, callback: (error: unknown, data: Record<string, unknown> | false) => void) {
    const load = catalogueFiles[`../locales/${lng}/${ns}.json`];
    if (!load) return callback(null, {});
    load().then(
      (mod) => callback(null, mod.default),
      (error: unknown) => callback(error, false),
    );
  },
};

export function storedLocale(): TLocale {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(LOCALE_STORAGE_KEY) : null;
  return stored === 'es' ? 'es' : 'en';
}

/** Resolves once the shell's catalogues are in: main.tsx renders after it. */
export const i18nReady = i18n
  .use(lazyCatalogues)
  .use(initReactI18next)
  .init({
    lng: storedLocale(),
    fallbackLng: 'en',
    supportedLngs: LOCALES,
    defaultNS: 'common',
    ns: EAGER_NAMESPACES,
    interpolation: { escapeValue: false },
    returnNull: false,
  });

export function setLocale(locale: TLocale) {
  localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  document.documentElement.lang = locale;
  void i18n.changeLanguage(locale);
}

export default i18n;
