// Build-time only (scripts/console-shell.mjs, decision 034): the sign-in page as static HTML, so
// `/` and `/signin` paint their real content before the bundle arrives. Not part of the browser
// bundle: nothing in the app imports this file.
import './signed-out-storage';
import { createInstance, type Resource } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import AuthLayout from '@/layouts/auth-layout';
import SigninPage from '@/features/auth/routes/signin';
import { SHELL_ID } from '@/app/shell';
import type { TRouteHandle } from '@/lib/route-handle';
import { LOCALES, type TLocale } from '@/lib/i18n';

// The catalogues the sign-in page reads (the app loads the same files lazily, lib/i18n.ts).
const NAMESPACES = ['common', 'form', 'auth'];
const catalogueFiles = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

async function loadResources(): Promise<Resource> {
  const resources: Resource = {};
  for (const locale of LOCALES) {
    resources[locale] = {};
    for (const ns of NAMESPACES) {
      const load = catalogueFiles[`../locales/${locale}/${ns}.json`];
      if (!load) throw new Error(`no ${locale}/${ns} catalogue`);
      resources[locale][ns] = (await load()).default;
    }
  }
  return resources;
}

// The same tree the router builds for /signin (app/router.tsx): the auth layout, the page under it
// with its route handle (the heading reads the title from it).
const routes = [
  {
    id: 'layout:auth',
    Component: AuthLayout,
    children: [
      {
        id: 'signin',
        path: '/signin',
        Component: SigninPage,
        handle: { title: 'signin', permission: null } satisfies TRouteHandle,
      },
    ],
  },
];

const ID_ATTRIBUTES = /\s(id|for|aria-labelledby|aria-describedby|aria-controls)="([^"]*)"/g;

/**
 * One language's page. Its ids are prefixed (both languages are in the HTML, and React's own
 * page replaces them), and every form gets `method="dialog"`: outside a dialog, a form with that
 * method submits nowhere, so Enter before the bundle runs sends no password in a URL.
 */
async function renderPage(locale: TLocale, resources: Resource): Promise<string> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'en',
    supportedLngs: LOCALES,
    defaultNS: 'common',
    ns: NAMESPACES,
    resources,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/signin'));
  if (context instanceof Response) throw new Error('the sign-in route answered a redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </I18nextProvider>,
  );
  return html
    .replace(ID_ATTRIBUTES, (_all, name: string, value: string) => {
      const ids = value.split(/\s+/).map((id) => `${SHELL_ID}-${locale}-${id}`);
      return ` ${name}="${ids.join(' ')}"`;
    })
    .replace(/<form(?=[\s>])/g, '<form method="dialog"');
}

/**
 * Buttons and selects do nothing before the bundle runs, so they are inert (not focusable, not
 * clickable: a click waits for the real one). Links and text fields stay live: a link is a plain
 * navigation, and what is typed is carried over when the real page takes over (app/shell.ts).
 */
function inertControls(html: string): string {
  return html.replace(/<(button|select)(?=[\s>])/g, '<$1 inert=""');
}

/**
 * The shell: every language's page in one element; the stylesheet shows the one matching
 * `<html lang>` (which public/theme.js sets before the first paint), and the theme follows the
 * `dark` class it sets too. The theme button shows the light theme's icon until React takes over.
 */
export async function renderSigninShell(): Promise<string> {
  const resources = await loadResources();
  const pages: string[] = [];
  for (const locale of LOCALES) {
    const page = inertControls(await renderPage(locale, resources));
    pages.push(`<div data-shell-lang="${locale}">${page}</div>`);
  }
  return `<div id="${SHELL_ID}">${pages.join('')}</div>`;
}
