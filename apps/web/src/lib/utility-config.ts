import { useEffect, useState } from 'react';
import type { TUtilityConfig } from '@air/shared/schemas/support';
import { call } from '@/lib/api';
import { useSession } from '@/lib/session';

export const DEFAULT_DOCS_URL = '/api/docs';

let cached: Promise<TUtilityConfig | null> | null = null;

/** GET /api/utility/config once per page load (a failure is retried on the next use). */
export function loadUtilityConfig(): Promise<TUtilityConfig | null> {
  cached ??= call('GET /api/utility/config').then(
    (res) => res.data ?? null,
    () => {
      cached = null;
      return null;
    },
  );
  return cached;
}

/** Where the Docs link goes: DOCS_URL when the server sets one, else the OpenAPI reference. */
export function useDocsUrl(): string {
  const { signedIn } = useSession();
  const [url, setUrl] = useState(DEFAULT_DOCS_URL);
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    void loadUtilityConfig().then((config) => {
      if (live && config?.docs_url) setUrl(config.docs_url);
    });
    return () => {
      live = false;
    };
  }, [signedIn]);
  return url;
}
