import { useCallback, useEffect, useRef } from 'react';
import type { TFormSchema, TSchemaLike } from './types';

/** Resolves a form's schema once (a loader is called when the form mounts). */
export function useSchema(source: TFormSchema): () => Promise<TSchemaLike> {
  const loading = useRef<Promise<TSchemaLike> | null>(null);
  const get = useCallback(() => {
    loading.current ??= typeof source === 'function' ? source() : Promise.resolve(source);
    return loading.current;
  }, [source]);
  useEffect(() => void get(), [get]);
  return get;
}
