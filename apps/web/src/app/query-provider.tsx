import type { ComponentType, ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@/lib/query-client';

/**
 * TanStack Query for the layouts that fetch data. The sign-in family renders without it, keeping
 * query-core off the sign-in route's budget; an auth page that fetches wraps itself with
 * withQueryProvider. Every provider shares one client, so the cache survives layout changes.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

export function withQueryProvider<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  const Wrapped = (props: P) => (
    <QueryProvider>
      <Page {...props} />
    </QueryProvider>
  );
  Wrapped.displayName = `withQueryProvider(${Page.displayName ?? Page.name})`;
  return Wrapped;
}
