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

const asLocale = (value: unknown): TLocale | null =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value.slice(0, 2).toLowerCase())
    ? (value.slice(0, 2).toLowerCase() as TLocale)
    : null;

/** The signed-in user's saved language, read from storage directly (lib/session imports this module). */
function savedUserLocale(): TLocale | null {
  try {
    const user = JSON.parse(localStorage.getItem('air.user') ?? 'null') as { locale?: unknown } | null;
    return asLocale(user?.locale);
  } catch {
    return null;
  }
}

/**
 * The language to show, in the order the theme follows (lib/theme.ts): this device's choice, else
 * the signed-in user's saved one, else the browser's first supported language, else English.
 * public/theme.js applies the same order before the first paint.
 */
export function storedLocale(): TLocale {
  if (typeof localStorage === 'undefined') return 'en';
  const device = asLocale(localStorage.getItem(LOCALE_STORAGE_KEY));
  if (device) return device;
  const saved = savedUserLocale();
  if (saved) return saved;
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const language of browser) {
    const locale = asLocale(language);
    if (locale) return locale;
  }
  return 'en';
}

/** Shows the preferred language (after a sign-in brought the user's saved one) without storing it. */
export function applyStoredLocale() {
  const locale = storedLocale();
  document.documentElement.lang = locale;
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
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
