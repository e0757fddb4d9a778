import { Suspense, lazy, useState } from 'react';
import { useToast } from '@/components/ui/use-toast';

const Toaster = lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })));

/**
 * Mounts the Radix toaster when the first toast is queued and keeps it from then on. A page that
 * never toasts (most sign-in visits) skips its code; the F8 hotkey has nothing to focus until then.
 */
export function ToasterHost() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  // Set while rendering (React's pattern for state derived from a change), not in an effect: the
  // toaster mounts in the same render as the first toast instead of one render later.
  if (toasts.length > 0 && !needed) setNeeded(true);
  if (!needed && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
