import * as React from 'react';
import type { THttpMethod } from '@/lib/api';
import type { TFormFields } from '@/components/form/types';

export type TDialogMethod = THttpMethod;

// The form engine loads only when a form dialog first opens: pages that never use one don't pay for it.
const LazyForm = React.lazy(() => import('@/components/form/form').then((m) => ({ default: m.Form })));
const LazyDialogView = React.lazy(() => import('@/app/dialog-view'));

export interface TDialogOptions {
  title?: React.ReactNode;
  description?: React.ReactNode;
  buttonText?: React.ReactNode;
  url?: string;
  method?: TDialogMethod;
  /** A form field map (see the form engine); when present the dialog is a form dialog. */
  fields?: TFormFields;
  /** Called once with the result when the dialog closes: the form's answer, true on confirm, false on cancel. */
  callback?: (result: unknown) => void;
}

export interface TDialogState extends TDialogOptions {
  open: boolean;
}

/** Renders a form dialog's body; the default is the generic form engine (tests may pass their own). */
export type TDialogFormRenderer = (props: {
  fields: TFormFields;
  url?: string;
  method?: TDialogMethod;
  buttonText?: React.ReactNode;
  onSuccess: (result: unknown) => void;
  cancel: () => void;
}) => React.ReactNode;

interface TDialogContext {
  open: (options: TDialogOptions) => void;
  close: (result?: unknown) => void;
  state: TDialogState;
}

export const closedDialog: TDialogState = { open: false };
const DialogContext = React.createContext<TDialogContext | null>(null);

const defaultRenderForm: TDialogFormRenderer = ({ fields, url, method, buttonText, onSuccess, cancel }) => (
  <React.Suspense fallback={null}>
    <LazyForm
      fields={fields}
      url={url ?? ''}
      method={method ?? 'POST'}
      buttonText={typeof buttonText === 'string' ? buttonText : undefined}
      onSuccess={(response) => onSuccess(response)}
      cancel={cancel}
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

  const open = React.useCallback((options: TDialogOptions) => {
    callbackRef.current = options.callback;
    setState((prev) => ({ ...prev, ...options, open: true }));
  }, []);

  const close = React.useCallback((result?: unknown) => {
    const callback = callbackRef.current;
    callbackRef.current = undefined;
    setState(closedDialog);
    callback?.(result);
  }, []);

  const value = React.useMemo(() => ({ open, close, state }), [open, close, state]);
  // The dialog's Radix code loads on the first open, so routes that never open one (sign-in) skip it.
  const [everOpened, setEverOpened] = React.useState(false);
  if (state.open && !everOpened) setEverOpened(true);

  return (
    <DialogContext.Provider value={value}>
      {children}
      {everOpened && (
        <React.Suspense fallback={null}>
          <LazyDialogView state={state} close={close} renderForm={renderForm} />
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
