import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { call, type TCallOptions, type TDataOf, type TGetCall } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';

/** The `GET` calls without a path parameter. */
export type TPlainGetCall = Exclude<TGetCall, `${string}:${string}`>;

/**
 * GET one call of the shared table through the API client and cache its `data` (typed from the
 * call's declared answer) under the call's name, which is what a write invalidates. Fetch failures go to the shared error handler
 * (spec section 8: data fetch failures go to this handler).
 */
export function useApiQuery<K extends TPlainGetCall>(name: K) {
  const handleError = useErrorHandler();
  const query = useQuery({
    queryKey: [name],
    queryFn: async ({ signal }): Promise<TDataOf<K> | null> =>
      ((await call(name, { signal } as TCallOptions<K>)) as { data?: TDataOf<K> }).data ?? null,
  });
  const { error } = query;
  useEffect(() => {
    if (error) handleError(error);
  }, [error, handleError]);
  return query;
}
