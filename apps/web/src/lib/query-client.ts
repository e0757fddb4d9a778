import { QueryClient } from '@tanstack/react-query';

/**
 * The one data cache of the console, shared by every QueryProvider. Requests go out whatever the
 * browser says of its connection (`networkMode: 'always'`): the console talks to its own server,
 * which answers on a laptop with no network at all (Chromium then reports itself offline, and
 * TanStack Query's default would hold every query and mutation until it came back online).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});
