import { Suspense, lazy } from 'react';
import { useToasterWanted } from '@/components/ui/use-toast';

const Toaster = lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })));

/**
 * Mounts the toaster when the first toast is asked for and keeps it from then on. A page that never
 * toasts (most sign-in visits) skips its code; the F8 hotkey has nothing to focus until then.
 */
export function ToasterHost() {
  if (!useToasterWanted()) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
