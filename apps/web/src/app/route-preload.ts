import type { Params } from 'react-router';
import type { TRouteMeta } from '@/app/route-meta';
import i18n from '@/lib/i18n';

/**
 * Starts what a page needs besides its code, once its guard has let the visitor in: its
 * translation catalogues and its first queries. Nothing waits for it: the page renders as before
 * and finds the catalogue loaded and the answers in the cache or in flight. A failure here is
 * seen again, and handled, where the page itself asks.
 */
export function startPreload(route: TRouteMeta, params: Params): void {
  if (route.namespaces) void i18n.loadNamespaces([...route.namespaces]).catch(() => {});
  const { preload } = route;
  if (!preload) return;
  void Promise.all([import('@/lib/query-client'), preload(params)]).then(
    ([{ queryClient }, queries]) => {
      // prefetchQuery never rejects, and does nothing while the cached answer is fresh (staleTime).
      for (const query of queries) void queryClient.prefetchQuery(query);
    },
    () => {},
  );
}
