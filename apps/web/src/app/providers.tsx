import * as React from 'react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { DialogProvider, type TDialogFormRenderer } from '@/app/dialog-provider';
import { LoadingProvider } from '@/app/loading-provider';

export { useDialog, type TDialogOptions } from '@/app/dialog-provider';
export { useLoading } from '@/app/loading-provider';

/** Everything every page may use: toasts, the shared dialog and loading overlay. Tooltips live
 * in the app shell's rail (loaded on first use) and the data cache in the data layouts
 * (app/query-provider.tsx), keeping their code off the sign-in route. */
export function AppProviders({
  children,
  renderForm,
}: {
  children: React.ReactNode;
  renderForm?: TDialogFormRenderer;
}) {
  return (
    <LoadingProvider>
      <DialogProvider renderForm={renderForm}>
        {children}
        <ToasterHost />
      </DialogProvider>
    </LoadingProvider>
  );
}
