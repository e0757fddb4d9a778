import { afterEach, describe, expect, it } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import {
  RouterContextProvider,
  type LoaderFunction,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router';
import { permissionsFor } from '@air/shared/permissions';
import { buildRoutes } from '@/app/router';
import { mockApi } from '@/features/account/test/page-harness';
import i18n from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { clearSession, setSession } from '@/lib/session';
import { endpointFixture, signInFixture } from '@/test/fixtures';

/** The loader of the route at `path`, as the router runs it on navigation. */
function loaderOf(path: string): LoaderFunction {
  const pages = (buildRoutes()[0]!.children ?? []).flatMap((layout: RouteObject) => layout.children ?? []);
  const route = pages.find((page) => page.path === path);
  return route!.loader as LoaderFunction;
}

function navigate(path: string, url: string, params: Record<string, string> = {}) {
  const request = new Request(`http://localhost${url}`);
  const args: LoaderFunctionArgs = {
    request,
    url: new URL(request.url),
    pattern: path,
    params,
    context: new RouterContextProvider(),
  };
  return loaderOf(path)(args);
}

function signIn(role: 'owner' | 'user') {
  act(() =>
    setSession(
      signInFixture({
        token: 'test-token',
        role,
        verified: true,
        permission: { ...permissionsFor(role) },
        plan: 'free',
        onboarded: true,
      }),
    ),
  );
}

afterEach(() => {
  act(() => clearSession());
  queryClient.clear();
});

describe('a page preloads what it shows first', () => {
  it('the registry list is asked for, and its catalogue loaded, by the loader: before the page renders', async () => {
    signIn('owner');
    const endpoint = endpointFixture({ route_name: 'acme/model' });
    const calls = mockApi({ 'GET /api/aiendpoint': { body: { data: [endpoint] } } });
    const bundle = i18n.getResourceBundle('en', 'registry') as Record<string, unknown>;
    i18n.removeResourceBundle('en', 'registry');
    try {
      expect(await navigate('/registry', '/registry')).toBeNull();
      // Nothing rendered: only the loader ran.
      await waitFor(() => expect(queryClient.getQueryData(['aiendpoints'])).toEqual([endpoint]));
      expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /api/aiendpoint']);
      await waitFor(() => expect(i18n.hasResourceBundle('en', 'registry')).toBe(true));
    } finally {
      if (!i18n.hasResourceBundle('en', 'registry')) i18n.addResourceBundle('en', 'registry', bundle);
    }
  });

  it("an endpoint's page asks for that endpoint", async () => {
    signIn('owner');
    const endpoint = endpointFixture({ id: 'e42' });
    const calls = mockApi({ 'GET /api/aiendpoint/:id': { body: { data: endpoint } } });
    await navigate('/aiendpoints/:id', '/aiendpoints/e42', { id: 'e42' });
    await waitFor(() => expect(queryClient.getQueryData(['aiendpoint', 'e42'])).toEqual(endpoint));
    expect(calls.map((call) => call.path)).toEqual(['/api/aiendpoint/e42']);
  });

  it('the dashboard asks for the example key only for members who may read keys', async () => {
    const never = () => new Promise<never>(() => {});
    signIn('user');
    let calls = mockApi({
      'GET /api/account/overview': never,
      'GET /api/aiendpoint': never,
      'GET /api/key': never,
    });
    await navigate('/dashboard', '/dashboard');
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((call) => call.path).sort()).toEqual(['/api/account/overview', '/api/aiendpoint']);

    queryClient.clear();
    signIn('owner');
    calls = mockApi({
      'GET /api/account/overview': never,
      'GET /api/aiendpoint': never,
      'GET /api/key': never,
    });
    await navigate('/dashboard', '/dashboard');
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls.map((call) => call.path).sort()).toEqual([
      '/api/account/overview',
      '/api/aiendpoint',
      '/api/key',
    ]);
  });

  it('a visitor the guard sends away causes no request', async () => {
    const calls = mockApi({ 'GET /api/aiendpoint': { body: { data: [] } } });
    let thrown: unknown;
    try {
      await navigate('/registry', '/registry');
    } catch (redirect) {
      thrown = redirect;
    }
    expect((thrown as Response).headers.get('Location')).toBe('/signin');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
  });
});
