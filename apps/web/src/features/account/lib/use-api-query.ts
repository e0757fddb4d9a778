import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';

/**
 * GET `url` through the API client and cache its `data`. Fetch failures go to the shared error
 * handler (spec section 8: data fetch failures go to this handler).
 */
export function useApiQuery<T>(url: string) {
  const handleError = useErrorHandler();
  const query = useQuery({
    queryKey: [url],
    queryFn: async ({ signal }) => (await api.get<T>(url, { signal })).data ?? null,
  });
  const { error } = query;
  useEffect(() => {
    if (error) handleError(error);
  }, [error, handleError]);
  return query;
}
