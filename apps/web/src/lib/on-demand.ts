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
 * opens the widget (a failure is reported like any other error), and `standIn` for the trigger
 * drawn until then.
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
  /**
   * The props of the light button that stands in for the widget's trigger until its code is there:
   * the closed popup's ARIA state, and the pointer over it or focus on it fetching the code.
   */
  const standIn = (popup: 'menu' | 'dialog') =>
    ({
      'aria-haspopup': popup,
      'aria-expanded': false,
      'data-state': 'closed',
      onPointerEnter: preload,
      onFocus: preload,
    }) as const;
  return { module, preload, request, standIn };
}
