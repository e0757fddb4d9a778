import { QueryClient } from '@tanstack/react-query';

/** The one data cache of the console, shared by every QueryProvider. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
