import type { ComponentType } from 'react';
import { createBrowserRouter, useLoaderData, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { ROUTES, type TLayout, type TRouteMeta } from '@/app/routes';
import { guardLoader, isForbidden } from '@/app/guard';
import { startPreload } from '@/app/route-preload';
import { Root } from '@/app/root';
import { RouteError } from '@/app/route-error';
import type { TRouteHandle } from '@/lib/route-handle';

type TModule = Promise<{ default: ComponentType }>;

// Layouts are lazy too: the sign-in page must not pay for the app shell's navigation and menus.
const LAYOUTS: Record<TLayout, () => TModule> = {
  app: () => import('@/layouts/app-layout'),
  account: () => import('@/layouts/account-layout'),
  'account-basic': () => import('@/layouts/account-basic-layout'),
  auth: () => import('@/layouts/auth-layout'),
  'auth-centred': () => import('@/layouts/auth-centred-layout'),
  onboarding: () => import('@/layouts/onboarding-layout'),
  air: () => import('@/layouts/air-layout'),
  airpublic: () => import('@/layouts/air-public-layout'),
  airpublicfull: () => import('@/layouts/air-public-full-layout'),
  plain: () => import('@/layouts/plain-layout'),
};

const lazyComponent = (load: () => TModule) => async () => ({ Component: (await load()).default });

// Layouts whose pages fetch through TanStack Query; the auth family and the plain pages do not.
const DATA_LAYOUTS = new Set<TLayout>([
  'app',
  'account',
  'account-basic',
  'onboarding',
  'air',
  'airpublic',
  'airpublicfull',
]);

const lazyDataLayout = (load: () => TModule) => async () => {
  const [{ default: Layout }, { withQueryProvider }] = await Promise.all([
    load(),
    import('@/app/query-provider'),
  ]);
  return { Component: withQueryProvider(Layout) };
};

/**
 * The guard (a redirect throws before anything is fetched), then the page's preload; a member
 * without the page's role gets no preload (its calls would be refused) but the page naming the role.
 */
function routeLoader(route: TRouteMeta) {
  const guard = guardLoader(route.permission);
  return (args: LoaderFunctionArgs) => {
    const result = guard(args);
    if (!isForbidden(result)) startPreload(route, args.params);
    return result;
  };
}

/** A page that needs a role: rendered as itself, or as the page naming the role it needs (decision 042). */
const lazyGuardedPage = (route: TRouteMeta) => async () => {
  const [{ default: Page }, { default: Forbidden }] = await Promise.all([
    route.page(),
    import('@/features/errors/routes/forbidden'),
  ]);
  function GuardedPage() {
    const data = useLoaderData();
    return isForbidden(data) ? <Forbidden role={data.forbidden} /> : <Page />;
  }
  return { Component: GuardedPage };
};

/** Pages whose permission a signed-in member may lack (any but public and "signed in"). */
const needsRole = (route: TRouteMeta) => route.permission !== null && route.permission !== 'signed-in';

/** Build the route objects from the route table: one lazy layout route per layout, pages under it. */
export function buildRoutes(): RouteObject[] {
  const layouts = Object.keys(LAYOUTS) as TLayout[];
  const children: RouteObject[] = layouts.map((layout) => ({
    id: `layout:${layout}`,
    lazy: DATA_LAYOUTS.has(layout) ? lazyDataLayout(LAYOUTS[layout]) : lazyComponent(LAYOUTS[layout]),
    children: ROUTES.filter((route) => route.layout === layout).map((route) => ({
      path: route.path,
      loader: routeLoader(route),
      handle: { title: route.title, permission: route.permission } satisfies TRouteHandle,
      lazy: needsRole(route) ? lazyGuardedPage(route) : lazyComponent(route.page),
    })),
  }));
  // Any other path: the not-found page, in the plain layout like /notfound and /404.
  children
    .find((route) => route.id === 'layout:plain')
    ?.children?.push({
      path: '*',
      handle: { title: 'notFound', permission: null } satisfies TRouteHandle,
      lazy: lazyComponent(() => import('@/features/errors/routes/not-found')),
    });
  return [{ id: 'root', Component: Root, ErrorBoundary: RouteError, HydrateFallback: () => null, children }];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
