import * as React from 'react';
import type { TDialogFormRenderer, TDialogOptions, TDialogState, TReturnFocus } from '@/app/dialog-types';

export type { TDialogFormRenderer, TDialogOptions, TDialogState, TReturnFocus } from '@/app/dialog-types';

// The form engine loads only when a form dialog first opens: pages that never use one don't pay for it.
const LazyForm = React.lazy(() => import('@/components/form/form').then((m) => ({ default: m.Form })));
const LazyDialogView = React.lazy(() => import('@/app/dialog-view'));

interface TDialogContext {
  open: (options: TDialogOptions) => void;
  close: (result?: unknown) => void;
  state: TDialogState;
  returnFocus: TReturnFocus;
}

export const closedDialog: TDialogState = { open: false };
const DialogContext = React.createContext<TDialogContext | null>(null);

const defaultRenderForm: TDialogFormRenderer = ({
  fields,
  schema,
  call,
  params,
  buttonText,
  onSuccess,
  cancel,
}) => (
  <React.Suspense fallback={null}>
    <LazyForm
      fields={fields}
      schema={schema}
      call={call}
      params={params}
      buttonText={typeof buttonText === 'string' ? buttonText : undefined}
      onSuccess={(response) => onSuccess(response)}
      cancel={cancel}
      autoFocus
    />
  </React.Suspense>
);

export function DialogProvider({
  children,
  renderForm = defaultRenderForm,
}: {
  children: React.ReactNode;
  renderForm?: TDialogFormRenderer;
}) {
  const [state, setState] = React.useState<TDialogState>(closedDialog);
  // The callback lives in a ref so closing calls the one stored at opening, even after re-renders.
  const callbackRef = React.useRef<TDialogOptions['callback']>(undefined);
  // Opened from code, the dialog has no Radix trigger to hand focus back to: remember the opener.
  const openerRef = React.useRef<HTMLElement | null>(null);

  const open = React.useCallback((options: TDialogOptions) => {
    callbackRef.current = options.callback;
    const active = document.activeElement;
    openerRef.current = active instanceof HTMLElement && active !== document.body ? active : null;
    setState((prev) => ({ ...prev, ...options, open: true }) as TDialogState);
  }, []);

  const returnFocus = React.useCallback(() => {
    const opener = openerRef.current;
    openerRef.current = null;
    if (opener?.isConnected) opener.focus();
  }, []);

  const close = React.useCallback((result?: unknown) => {
    const callback = callbackRef.current;
    callbackRef.current = undefined;
    setState(closedDialog);
    callback?.(result);
  }, []);

  const value = React.useMemo(() => ({ open, close, state, returnFocus }), [open, close, state, returnFocus]);
  // The dialog's Radix code loads on the first open, so routes that never open one (sign-in) skip it.
  const [everOpened, setEverOpened] = React.useState(false);
  if (state.open && !everOpened) setEverOpened(true);

  return (
    <DialogContext.Provider value={value}>
      {children}
      {everOpened && (
        <React.Suspense fallback={null}>
          <LazyDialogView state={state} close={close} renderForm={renderForm} returnFocus={returnFocus} />
        </React.Suspense>
      )}
    </DialogContext.Provider>
  );
}

export function useDialog(): TDialogContext {
  const ctx = React.useContext(DialogContext);
  if (!ctx) throw new Error('useDialog must be used inside <DialogProvider>');
  return ctx;
}
