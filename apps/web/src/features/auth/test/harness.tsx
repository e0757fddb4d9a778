import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { TBodyOf, TConsoleCall } from '@air/shared/api';
import type { TSignInData } from '@air/shared/schemas/user';
import { buildRoutes } from '@/app/router';
import { resetToasts } from '@/components/ui/use-toast';
import { clearSession } from '@/lib/session';
import { resetRunOnce } from '@/features/auth/components/run-once';
import { signInFixture } from '@/test/fixtures';
import { serveApi, type TReply, type TSeenCall } from '@/test/api-mock';

// The sign-in family loads its request schemas (and zod) only after the route renders. Loading
// them here first keeps a cold transform of zod out of the tests' one-second waitFor timeouts.
await Promise.all([
  import('@air/shared/schemas/auth'),
  import('@air/shared/schemas/magic-link'),
  import('@air/shared/schemas/two-factor'),
]);

export interface TRecordedCall {
  method: string;
  /** Path and query, as the console asked for it. */
  url: string;
  body: unknown;
}

export type { TReply };
/** Answers by call name (`@air/shared/api`), typed from the server's schemas. */
export type TRoutes = {
  [K in TConsoleCall]?: TReply<K> | ((body: TBodyOf<K>) => TReply<K> | Promise<TReply<K>>);
};

/**
 * Serves a table of answers keyed by "METHOD /path" and records every call. A call with no answer
 * is a 404, as the real server would give for a missing route.
 */
export function mockFetch(routes: TRoutes): TRecordedCall[] {
  const table = Object.fromEntries(
    Object.entries(routes).map(([name, route]) => [
      name,
      (call: TSeenCall) =>
        typeof route === 'function'
          ? (route as (body: unknown) => TReply<TConsoleCall> | Promise<TReply<TConsoleCall>>)(call.body)
          : route,
    ]),
  );
  return serveApi(
    table,
    () => ({ status: 404, body: { message: 'Not found' } }),
    (call): TRecordedCall => ({
      method: call.method,
      url: call.url.pathname + call.url.search,
      body: call.body,
    }),
  );
}

/** The full console router (layouts, guard, toasts) at `path`, as a visitor would open it. */
export function renderRoute(path: string | { pathname: string; search?: string; state?: unknown }) {
  const user = userEvent.setup();
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return { router, user };
}

/** Waits for a lazily loaded page's first paint (the first import compiles the module). */
export function findPage(name: string | RegExp) {
  return screen.findByRole('heading', { name });
}

/** A complete sign-in answer (typed from @air/shared) with overridable routing flags. */
export function signInAnswer(overrides: Partial<TSignInData> = {}): TSignInData {
  return signInFixture({
    token: 'session-jwt',
    name: 'Ada',
    accounts: [{ id: 'a1', name: 'Ada' }],
    account_id: 'a1',
    ...overrides,
  });
}

export function resetAuthTestState() {
  act(() => {
    clearSession();
    resetToasts();
  });
  resetRunOnce();
}
