import { useSyncExternalStore } from 'react';
import { call } from '@/lib/api';
import { getSession, updateUser } from '@/lib/session';

export const THEME_STORAGE_KEY = 'air.theme';
export type TTheme = 'light' | 'dark';

const listeners = new Set<() => void>();

export function currentTheme(): TTheme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

/** Apply at once, keep on this device, and store on the user when signed in (spec section 4). */
export function setTheme(theme: TTheme) {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  localStorage.setItem(THEME_STORAGE_KEY, theme);
  listeners.forEach((listener) => listener());
  const { token, user } = getSession();
  if (token && user) {
    updateUser({ dark_mode: theme === 'dark' });
    // The choice is already applied locally; a failed save only means another device won't see it.
    call('PATCH /api/user', { body: { dark_mode: theme === 'dark' } }).catch(() => undefined);
  }
}

/** Apply the stored theme (device choice first, else the user's flag). public/theme.js does the same before paint. */
export function applyStoredTheme() {
  const stored = localStorage.getItem(THEME_STORAGE_KEY);
  const dark = stored ? stored === 'dark' : Boolean(getSession().user?.dark_mode);
  document.documentElement.classList.toggle('dark', dark);
}

export function useTheme(): TTheme {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentTheme,
    () => 'light' as TTheme,
  );
}
