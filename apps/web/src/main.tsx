import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import '@/styles.css';
import { LOCALE_STORAGE_KEY, i18nReady, setLocale, storedLocale } from '@/lib/i18n';
import { applyStoredTheme } from '@/lib/theme';
import { getSession } from '@/lib/session';
import { createAppRouter } from '@/app/router';

// A device without its own language choice takes the signed-in user's saved locale.
const userLocale = getSession().user?.locale;
if (!localStorage.getItem(LOCALE_STORAGE_KEY) && (userLocale === 'es' || userLocale === 'en'))
  setLocale(userLocale);
else document.documentElement.lang = storedLocale();
applyStoredTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The first paint waits for the shell's catalogues (a few KB) so it never flashes raw keys.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={createAppRouter()} />
    </StrictMode>,
  ),
);
