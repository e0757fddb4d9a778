import { afterEach, describe, expect, it } from 'vitest';
import { act } from '@testing-library/react';
import i18n, { applyStoredLocale, LOCALE_STORAGE_KEY, storedLocale } from '@/lib/i18n';
import { changeLocale } from '@/lib/locale';
import { applyStoredTheme, currentTheme, setTheme, THEME_STORAGE_KEY } from '@/lib/theme';

afterEach(() => {
  localStorage.clear();
  document.documentElement.classList.remove('dark');
  act(() => changeLocale('en'));
});

describe('theme persistence', () => {
  it('applies dark mode at once and restores it after a reload', () => {
    setTheme('dark');
    expect(currentTheme()).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    document.documentElement.classList.remove('dark'); // a fresh page
    applyStoredTheme();
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    setTheme('light');
    applyStoredTheme();
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });
});

describe('locale persistence', () => {
  it('switches language at once, stores it and sets the html lang', () => {
    act(() => changeLocale('es'));
    expect(i18n.language).toBe('es');
    expect(i18n.t('notFound.button')).toBe('Ir al panel');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    expect(storedLocale()).toBe('es'); // what the next load starts with
  });
});

describe('language preference order', () => {
  function browserLanguages(languages: string[]) {
    Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  }
  afterEach(() => browserLanguages(['en-US', 'en']));

  it("a stored choice wins over the browser's language, as the theme's does", () => {
    browserLanguages(['es-ES', 'es']);
    localStorage.removeItem(LOCALE_STORAGE_KEY);
    expect(storedLocale()).toBe('es'); // nothing stored: the browser's
    localStorage.setItem(LOCALE_STORAGE_KEY, 'en');
    expect(storedLocale()).toBe('en'); // this device's choice
    browserLanguages(['fr-FR', 'es-MX']);
    localStorage.removeItem(LOCALE_STORAGE_KEY);
    expect(storedLocale()).toBe('es'); // the first supported one
  });

  it("a signed-in user's saved language wins over the browser's and applies at sign-in", () => {
    browserLanguages(['en-US']);
    localStorage.removeItem(LOCALE_STORAGE_KEY);
    localStorage.setItem('air.user', JSON.stringify({ name: 'Ana', locale: 'es' }));
    expect(storedLocale()).toBe('es');
    act(() => applyStoredLocale());
    expect(i18n.language).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    // Applying it does not make it this device's choice.
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBeNull();
  });
});
