import * as React from 'react';
import { useTranslation } from 'react-i18next';
import type { THttpMethod } from '@/lib/api';
import type { TFormFields } from '@/components/form/types';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

export type TDialogMethod = THttpMethod;

// The form engine loads only when a form dialog first opens: pages that never use one don't pay for it.
const LazyForm = React.lazy(() => import('@/components/form/form').then((m) => ({ default: m.Form })));

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

const closed: TDialogState = { open: false };
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
  const [state, setState] = React.useState<TDialogState>(closed);
  // The callback lives in a ref so closing calls the one stored at opening, even after re-renders.
  const callbackRef = React.useRef<TDialogOptions['callback']>(undefined);

  const open = React.useCallback((options: TDialogOptions) => {
    callbackRef.current = options.callback;
    setState((prev) => ({ ...prev, ...options, open: true }));
  }, []);

  const close = React.useCallback((result?: unknown) => {
    const callback = callbackRef.current;
    callbackRef.current = undefined;
    setState(closed);
    callback?.(result);
  }, []);

  const value = React.useMemo(() => ({ open, close, state }), [open, close, state]);
  const { t } = useTranslation();

  return (
    <DialogContext.Provider value={value}>
      {children}
      <Dialog open={state.open} onOpenChange={(next) => !next && close(false)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{state.title}</DialogTitle>
            <DialogDescription className={state.description ? undefined : 'sr-only'}>
              {state.description ?? state.title}
            </DialogDescription>
          </DialogHeader>
          {state.fields ? (
            renderForm({
              fields: state.fields,
              url: state.url,
              method: state.method,
              buttonText: state.buttonText,
              onSuccess: (result) => close(result),
              cancel: () => close(false),
            })
          ) : (
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                {t('dialog.cancel')}
              </Button>
              <Button onClick={() => close(true)}>{state.buttonText ?? t('dialog.confirm')}</Button>
            </DialogFooter>
          )}
        </DialogContent>
      </Dialog>
    </DialogContext.Provider>
  );
}

export function useDialog(): TDialogContext {
  const ctx = React.useContext(DialogContext);
  if (!ctx) throw new Error('useDialog must be used inside <DialogProvider>');
  return ctx;
}
