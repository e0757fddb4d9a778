import { afterEach, describe, expect, it } from 'vitest';
import { act } from '@testing-library/react';
import i18n, { LOCALE_STORAGE_KEY, storedLocale } from '@/lib/i18n';
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
