import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { DialogProvider } from '@/app/dialog-provider';
import { LoadingProvider } from '@/app/loading-provider';
import { Toaster } from '@/components/ui/toaster';
import { setSession, type TSessionUser } from '@/lib/session';

/** Test support for page tests: a mocked server, a signed-in user and the page in a real router. */

export interface TMockAnswer {
  status?: number;
  body?: unknown;
}
export type TMockHandler = TMockAnswer | ((body: unknown) => TMockAnswer);
export interface TRecordedCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * Replaces fetch with a table of `"METHOD /path"` answers and records every call. An unmocked call
 * answers 599 so a test notices it rather than hanging.
 */
export function mockApi(handlers: Record<string, TMockHandler>): TRecordedCall[] {
  const calls: TRecordedCall[] = [];
  // A spy, not a stubbed global: restoring it (vi.restoreAllMocks) leaves the setup's stubs alone.
  vi.spyOn(globalThis, 'fetch').mockImplementation(
    async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = new URL(input instanceof Request ? input.url : input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({
        method,
        path: url.pathname,
        search: url.search,
        body,
        headers: (init.headers ?? {}) as Record<string, string>,
      });
      const handler = handlers[`${method} ${url.pathname}`];
      const answer: TMockAnswer = !handler
        ? { status: 599, body: { message: `unmocked ${method} ${url.pathname}` } }
        : typeof handler === 'function'
          ? handler(body)
          : handler;
      const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
      return new Response(text, {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  );
  return calls;
}

/** The permission map of each role, as the server sends it (permissionsFor in the shared package). */
export const PERMISSIONS = {
  owner: { master: false, owner: true, admin: true, developer: true, user: true },
  admin: { master: false, owner: false, admin: true, developer: false, user: true },
  developer: { master: false, owner: false, admin: false, developer: true, user: true },
  user: { master: false, owner: false, admin: false, developer: false, user: true },
} as const;

export function signInAs(patch: Partial<TSessionUser> = {}): TSessionUser {
  const user: TSessionUser = {
    id: 'u1',
    name: 'Ada Owner',
    email: 'ada@example.com',
    verified: true,
    permission: { ...PERMISSIONS.owner },
    has_password: true,
    '2fa_enabled': false,
    support_enabled: false,
    accounts: [{ id: 'a1', name: 'Ada Org' }],
    default_account: 'a1',
    account_id: 'a1',
    plan: 'free',
    subscription: { status: 'active' },
    onboarded: true,
    duplicate_user: false,
    ...patch,
  };
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
