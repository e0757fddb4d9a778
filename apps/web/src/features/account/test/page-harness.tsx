import type { ReactElement } from 'react';
import type { TBodyOf, TConsoleCall } from '@air/shared/api';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { DialogProvider } from '@/app/dialog-provider';
import { LoadingProvider } from '@/app/loading-provider';
import { Toaster } from '@/components/ui/toaster';
import { setSession, type TSessionUser } from '@/lib/session';
import { userFixture } from '@/test/fixtures';
import { serveApi, type TReply, type TSeenCall } from '@/test/api-mock';

/** Test support for page tests: a mocked server, a signed-in user and the page in a real router. */

export interface TRecordedCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Answers by call name (`@air/shared/api`), typed from the server's schemas; a function gets the
 * body, and the URL for what it carries besides (a page's `?cursor=`).
 */
export type TMockHandlers = {
  [K in TConsoleCall]?:
    TReply<K> | ((body: TBodyOf<K>, request: { url: URL }) => TReply<K> | Promise<TReply<K>>);
};

/**
 * Serves a table of `"METHOD /path"` answers and records every call. An unmocked call answers 599
 * so a test notices it rather than hanging.
 */
export function mockApi(handlers: TMockHandlers): TRecordedCall[] {
  const table = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      (call: TSeenCall) =>
        typeof handler === 'function'
          ? (
              handler as (
                body: unknown,
                request: { url: URL },
              ) => TReply<TConsoleCall> | Promise<TReply<TConsoleCall>>
            )(call.body, { url: call.url })
          : handler,
    ]),
  );
  return serveApi(
    table,
    (call) => ({ status: 599, body: { message: `unmocked ${call.method} ${call.url.pathname}` } }),
    (call): TRecordedCall => ({
      method: call.method,
      path: call.url.pathname,
      search: call.url.search,
      body: call.body,
      headers: Object.fromEntries(call.headers.entries()),
    }),
  );
}

/** The permission map of each role, as the server sends it (permissionsFor in the shared package). */
export const PERMISSIONS = {
  owner: { master: false, owner: true, admin: true, developer: true, user: true },
  admin: { master: false, owner: false, admin: true, developer: false, user: true },
  developer: { master: false, owner: false, admin: false, developer: true, user: true },
  user: { master: false, owner: false, admin: false, developer: false, user: true },
} as const;

export function signInAs(patch: Partial<TSessionUser> = {}): TSessionUser {
  const user = userFixture({
    id: 'u1',
    name: 'Ada Owner',
    accounts: [{ id: 'a1', name: 'Ada Org' }],
    default_account: 'a1',
    account_id: 'a1',
    account_name: 'Ada Org',
    ...patch,
  });
  act(() => setSession({ token: 'test-token', ...user }));
  return user;
}

function Shell() {
  return (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <LoadingProvider>
        <DialogProvider>
          <Outlet />
          <Toaster />
        </DialogProvider>
      </LoadingProvider>
    </QueryClientProvider>
  );
}

/** Any page the tested page navigates to: shows where it landed. */
function Elsewhere() {
  const location = useLocation();
  return <p data-testid="landed">{location.pathname + location.search}</p>;
}

/** Renders `page` at `url` (route `path`) inside the app's providers; other paths show where they are. */
export function renderPage(
  page: ReactElement,
  { path, url = path, title = 'profile' }: { path: string; url?: string; title?: string },
) {
  const router = createMemoryRouter(
    [
      {
        element: <Shell />,
        children: [
          { path, element: page, handle: { title, permission: null } },
          { path: '*', element: <Elsewhere /> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  const user = userEvent.setup();
  render(<RouterProvider router={router} />);
  return { router, user };
}

/** The path (and query) the router is at. */
export function at(router: ReturnType<typeof createMemoryRouter>): string {
  return router.state.location.pathname + router.state.location.search;
}
