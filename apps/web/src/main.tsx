import '@/lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import '@/styles.css';
import { i18nReady, storedLocale } from '@/lib/i18n';
import { applyStoredTheme } from '@/lib/theme';
import { createAppRouter } from '@/app/router';

// Device choice, else the signed-in user's saved language, else the browser's (i18n.ts).
document.documentElement.lang = storedLocale();
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
