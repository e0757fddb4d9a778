import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { buildRoutes } from '@/app/router';
import { resetToasts } from '@/components/ui/use-toast';
import { clearSession } from '@/lib/session';
import { resetRunOnce } from '@/features/auth/components/run-once';

export interface TRecordedCall {
  method: string;
  url: string;
  body: unknown;
}

export type TReply = { status: number; body?: unknown };
export type TRoutes = Record<string, TReply | ((body: unknown) => TReply)>;

/**
 * Replaces `fetch` with a table of answers keyed by "METHOD /path" and records every call. A call
 * with no answer is a 404, as the real server would give for a missing route.
 */
const realFetch = globalThis.fetch;

export function mockFetch(routes: TRoutes): TRecordedCall[] {
  const calls: TRecordedCall[] = [];
  globalThis.fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, url, body });
    const route = routes[`${method} ${new URL(url, 'http://x').pathname}`];
    const reply =
      typeof route === 'function' ? route(body) : (route ?? { status: 404, body: { message: 'Not found' } });
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return calls;
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
  return screen.findByRole('heading', { name }, { timeout: 5000 });
}

/** A complete sign-in answer (contract section 3) with overridable routing flags. */
export function signInAnswer(overrides: Record<string, unknown> = {}) {
  return {
    token: 'session-jwt',
    name: 'Ada',
    email: 'ada@example.com',
    verified: true,
    plan: 'free',
    onboarded: true,
    subscription: { status: 'active' },
    permission: { owner: true, admin: true, developer: true, user: true },
    accounts: [{ id: 'a1', name: 'Ada' }],
    account_id: 'a1',
    ...overrides,
  };
}

export function resetAuthTestState() {
  act(() => {
    clearSession();
    resetToasts();
  });
  resetRunOnce();
  globalThis.fetch = realFetch;
}
