import { StrictMode, type ComponentType } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { TooltipProvider } from '@/components/ui/tooltip';

export interface TMockCall {
  method: string;
  url: string;
  body: unknown;
}

type TMockAnswer =
  { status?: number; body?: unknown } | ((call: TMockCall) => { status?: number; body?: unknown });

/**
 * A fetch stand-in keyed by "METHOD /path" (query string included when given). Unknown calls answer
 * 404 so a page calling something unexpected shows it. Returns the recorded calls.
 */
export function mockFetch(routes: Record<string, TMockAnswer>) {
  const calls: TMockCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    const call = { method, url: path, body };
    calls.push(call);
    const answer = routes[`${method} ${path}`] ?? routes[`${method} ${path.split('?')[0]}`];
    const { status = 200, body: out = {} } = answer
      ? typeof answer === 'function'
        ? answer(call)
        : answer
      : { status: 404, body: { message: 'Not found' } };
    return new Response(JSON.stringify(out), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/**
 * Renders one page module at `path` inside the console's providers and a data router (the page
 * heading reads the route handle). Other paths render their pathname so redirects can be asserted.
 */
export function renderPage(
  Page: ComponentType,
  { route, path, title = 'dashboard' }: { route: string; path: string; title?: string },
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
          { path: '*', element: <p data-testid="elsewhere">elsewhere</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  // StrictMode like main.tsx: effects run twice, which catches cleanup bugs the app would hit.
  render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <RouterProvider router={router} />
        </TooltipProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  return { user, router, queryClient };
}
