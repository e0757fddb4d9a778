import type { ComponentType, ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@/lib/query-client';

/*
 * The first number formatter a page makes costs 15-60 ms (the browser loads its number data), the
 * first date formatter a few more; every later one, in any language, well under a millisecond.
 * Data pages make their first ones while rendering their answers, in their longest task. This
 * module loads with the data layouts, while the page still waits for its code and answers: the
 * first formatters are made then, in a task of their own (decision 064).
 */
setTimeout(() => [new Intl.NumberFormat(), new Intl.DateTimeFormat()].map((made) => made.format(1)));

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
