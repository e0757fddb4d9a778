import { StrictMode, type ComponentType } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import type { TConsoleCall } from '@air/shared/api';
import { AppProviders } from '@/app/providers';
import { serveApi, type TReply, type TSeenCall } from '@/test/api-mock';

export interface TMockCall {
  method: string;
  /** Path and query. */
  url: string;
  body: unknown;
}

/** Answers by call name (`@air/shared/api`), typed from the server's schemas. */
export type TMockRoutes = {
  [K in TConsoleCall]?:
    TReply<K> | ((call: TMockCall & { params: URLSearchParams }) => TReply<K> | Promise<TReply<K>>);
};

const asMockCall = (call: TSeenCall): TMockCall => ({
  method: call.method,
  url: call.url.pathname + call.url.search,
  body: call.body,
});

/**
 * Serves answers keyed by "METHOD /path" (`:id` for a path parameter). Unknown calls answer 404 so
 * a page calling something unexpected shows it. Returns the recorded calls.
 */
export function mockFetch(routes: TMockRoutes): TMockCall[] {
  const table = Object.fromEntries(
    Object.entries(routes).map(([name, route]) => [
      name,
      (call: TSeenCall) =>
        typeof route === 'function'
          ? (
              route as (
                call: TMockCall & { params: URLSearchParams },
              ) => TReply<TConsoleCall> | Promise<TReply<TConsoleCall>>
            )({
              ...asMockCall(call),
              params: call.url.searchParams,
            })
          : route,
    ]),
  );
  return serveApi(table, () => ({ status: 404, body: { message: 'Not found' } }), asMockCall);
}

/**
 * Renders one page module at `path` inside the console's providers and a data router (the page
 * heading reads the route handle). Other paths render their pathname so redirects can be asserted;
 * with `elsewhereLoadsMs` their page loads lazily, taking that long (as the app's route modules do).
 */
export function renderPage(
  Page: ComponentType,
  {
    route,
    path,
    title = 'dashboard',
    elsewhereLoadsMs,
  }: { route: string; path: string; title?: string; elsewhereLoadsMs?: number },
) {
  const user = userEvent.setup();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // Like the app's root route: the providers sit inside the router, so dialogs can navigate.
  const router = createMemoryRouter(
    [
      {
        element: (
          <AppProviders>
            <Outlet />
          </AppProviders>
        ),
        children: [
          { path: route, element: <Page />, handle: { title, permission: 'user' } },
          elsewhereLoadsMs === undefined
            ? { path: '*', element: <p data-testid="elsewhere">elsewhere</p> }
            : {
                path: '*',
                lazy: () =>
                  new Promise((resolve) =>
                    setTimeout(
                      () => resolve({ Component: () => <p data-testid="elsewhere">elsewhere</p> }),
                      elsewhereLoadsMs,
                    ),
                  ),
              },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  // StrictMode like main.tsx: effects run twice, which catches cleanup bugs the app would hit.
  render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  return { user, router, queryClient };
}
