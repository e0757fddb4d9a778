import { useQueryClient } from '@tanstack/react-query';
import type { TApiKey } from '@/features/apikeys/api-keys-api';
import { useErrorHandler } from '@/lib/error-handler';
import { revealedKeyQuery } from './dashboard-data';
import { PLACEHOLDER_KEY } from '@air/shared/snippets';

/**
 * The key a snippet names: `shown` is what the page prints (the placeholder, a masked key, or a
 * full key the page shows anyway); `full`, when given, fetches the real key for the copied text.
 */
export interface TSnippetKey {
  shown: string;
  full?: () => Promise<string>;
}

/**
 * A listed key for snippets: shown masked, revealed only when a snippet is copied (and then kept for
 * the session, so copying twice records one reveal in the activity log). No key: the placeholder.
 */
export function useSnippetKey(key: TApiKey | null | undefined): TSnippetKey {
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  if (!key) return { shown: PLACEHOLDER_KEY };
  return {
    shown: key.key,
    full: async () => {
      try {
        return await queryClient.fetchQuery(revealedKeyQuery(key.id));
      } catch (error) {
        handleError(error);
        throw error;
      }
    },
  };
}
