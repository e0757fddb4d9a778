import { useCallback, useState } from 'react';
import { useErrorHandler } from '@/lib/error-handler';

/**
 * Code a widget needs only once it is used (a menu's, a drawer's, a tooltip's): loaded by the
 * first `load()` (one request however often it is asked for), kept after. The shell's overlays
 * come this way so the Radix menu, dialog, popover and tooltip code (with Popper, floating-ui,
 * DismissableLayer, FocusScope, aria-hidden) stays off every page's first load.
 */
export interface TOnDemand<T> {
  /** The module, once it has loaded. */
  loaded(): T | undefined;
  load(): Promise<T>;
}

export function onDemand<T>(importer: () => Promise<T>): TOnDemand<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    loaded: () => module,
    load() {
      loading ??= importer().then(
        (loadedModule) => (module = loadedModule),
        (error: unknown) => {
          // A failed request (offline, a new deploy) is asked again on the next use.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}

/**
 * A component's handle on on-demand code: the module once the component asked for it (it renders
 * again then; at once when the code had loaded already), `preload` to fetch it ahead (pointer over
 * or focus on the trigger: failures stay silent, the use will ask again) and `request` when the user
 * opens the widget (a failure is reported like any other error).
 */
export function useOnDemand<T>(code: TOnDemand<T>) {
  const handleError = useErrorHandler();
  const [module, setModule] = useState<T | undefined>(code.loaded);
  const preload = useCallback(() => void code.load().catch(() => undefined), [code]);
  const request = useCallback(() => {
    const now = code.loaded();
    if (now) setModule(() => now);
    else code.load().then((loadedModule) => setModule(() => loadedModule), handleError);
  }, [code, handleError]);
  return { module, preload, request };
}
