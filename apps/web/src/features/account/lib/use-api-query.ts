import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, callUrl, type TDataOf, type TGetCall } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';

/** The `GET` calls without a path parameter. */
export type TPlainGetCall = Exclude<TGetCall, `${string}:${string}`>;

/**
 * GET one call of the shared table through the API client and cache its `data` (typed from the
 * call's declared answer) under the call's URL. Fetch failures go to the shared error handler
 * (spec section 8: data fetch failures go to this handler).
 */
export function useApiQuery<K extends TPlainGetCall>(name: K) {
  const url = callUrl(name);
  const handleError = useErrorHandler();
  const query = useQuery({
    queryKey: [url],
    queryFn: async ({ signal }) =>
      (await apiRequest<TDataOf<K>>('GET', url, undefined, { signal })).data ?? null,
  });
  const { error } = query;
  useEffect(() => {
    if (error) handleError(error);
  }, [error, handleError]);
  return query;
}
