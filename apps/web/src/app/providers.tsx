import * as React from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '@/components/ui/toaster';
import { TooltipProvider } from '@/components/ui/tooltip';
import { DialogProvider, type TDialogFormRenderer } from '@/app/dialog-provider';
import { LoadingProvider } from '@/app/loading-provider';

export { useDialog, type TDialogOptions } from '@/app/dialog-provider';
export { useLoading } from '@/app/loading-provider';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** Everything every page may use: data cache, tooltips, toasts, the shared dialog and loading overlay. */
export function AppProviders({
  children,
  renderForm,
}: {
  children: React.ReactNode;
  renderForm?: TDialogFormRenderer;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <LoadingProvider>
          <DialogProvider renderForm={renderForm}>
            {children}
            <Toaster />
          </DialogProvider>
        </LoadingProvider>
      </TooltipProvider>
    </QueryClientProvider>
  );
}
