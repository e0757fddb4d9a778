import { afterEach, describe, expect, it } from 'vitest';
import { signInFixture } from '@/test/fixtures';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { buildRoutes } from '@/app/router';
import { ROUTES } from '@/app/routes';
import { clearSession, setSession } from '@/lib/session';
import { permissionsFor } from '@air/shared/permissions';
import i18n from '@/lib/i18n';
import { mockApi } from '@/features/account/test/page-harness';

function renderAt(path: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => act(() => clearSession()));

describe('router', () => {
  it.each(['/no/such/page', '/notfound', '/404'])(
    '%s shows the 404 page with a button to the dashboard',
    async (path) => {
      renderAt(path);
      // The first lazy import compiles the page module, so allow more than the default second.
      expect(await screen.findByText("Oops, the page you're looking for doesn't exist.")).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Go to dashboard' }).getAttribute('href')).toBe('/dashboard');
    },
  );

  it('sends a signed-out visitor of a guarded page to /signin and sets the title', async () => {
    const router = renderAt('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    await screen.findByRole('heading', { name: 'Sign in' });
    await waitFor(() => expect(document.title).toBe('Sign in | AIR'));
  });

  it('shows a signed-in user without the permission which role the page needs, never /signin (decision 042)', async () => {
    act(() =>
      setSession(
        signInFixture({
          token: 'test-token',
          role: 'developer',
          id: 'u1',
          name: 'Dev',
          email: 'dev@example.com',
          verified: true,
          permission: { ...permissionsFor('developer') },
          accounts: [{ id: 'a1', name: 'Org' }],
          account_id: 'a1',
          plan: 'free',
          onboarded: true,
        }),
      ),
    );
    const router = renderAt('/account/users');
    expect(await screen.findByRole('heading', { level: 1, name: 'You need the Admin role' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/users');
    expect(screen.getByText(/The owner or an admin of .* can give you the Admin role/)).toBeTruthy();
  });

  it('declares every route of the spec once, including both scaffold readings', () => {
    const paths = ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of [
      '/air',
      '/air/:id',
      '/airs',
      '/airs/:id',
      '/search',
      '/search/:id',
      '/searchs/:id',
      '/airindex',
      '/airfull',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it(
    'shows the frame and a loading state at once while a page waits for its translations',
    { timeout: 60_000 },
    async () => {
      act(() =>
        setSession(
          signInFixture({
            token: 'test-token',
            role: 'owner',
            verified: true,
            permission: { ...permissionsFor('owner') },
            plan: 'free',
            onboarded: true,
          }),
        ),
      );
      // The answers never come: only the frame and the loading states can show.
      const never = () => new Promise<never>(() => {});
      mockApi({
        'GET /api/account/usage': never,
        'GET /api/account/usage/insight': never,
        'GET /api/account/usage/log': never,
        'GET /api/auth': never,
      });
      // A first visit: the usage catalogue is not loaded yet, and is held until released.
      const bundle = i18n.getResourceBundle('en', 'usage') as Record<string, unknown>;
      i18n.removeResourceBundle('en', 'usage');
      const backend = i18n.services.backendConnector.backend as {
        read: (lng: string, ns: string, done: (error: unknown, data: unknown) => void) => void;
      };
      const read = backend.read;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      backend.read = (lng, ns, done) => void held.then(() => read.call(backend, lng, ns, done));
      try {
        renderAt('/account/usage');
        // (A status takes no name from its text.)
        expect(await screen.findByText('Loading…')).toBeTruthy();
        expect(screen.getByRole('navigation', { name: 'Account settings' })).toBeTruthy();
        expect(screen.getByRole('link', { name: 'Usage' }).getAttribute('aria-current')).toBe('page');
        release();
        expect(await screen.findByRole('heading', { name: 'Usage', level: 1 })).toBeTruthy();
      } finally {
        backend.read = read;
        if (!i18n.hasResourceBundle('en', 'usage')) i18n.addResourceBundle('en', 'usage', bundle);
      }
    },
  );
});
