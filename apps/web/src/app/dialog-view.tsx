import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import type { TDialogFormRenderer, TDialogState, TReturnFocus } from '@/app/dialog-types';

/** The shared dialog's view: a confirmation, or a form when the state carries fields. */
export default function DialogView({
  state,
  close,
  renderForm,
  returnFocus,
}: {
  state: TDialogState;
  close: (result?: unknown) => void;
  renderForm: TDialogFormRenderer;
  returnFocus?: TReturnFocus;
}) {
  const { t } = useTranslation();
  const contentRef = useRef<HTMLDivElement>(null);
  return (
    <Dialog open={state.open} onOpenChange={(next) => !next && close(false)}>
      <DialogContent
        ref={contentRef}
        onOpenAutoFocus={(event) => {
          // A form dialog focuses its first field once the form has loaded (Form's autoFocus);
          // until then focus rests on the dialog itself, not on its Close button.
          if (!state.fields) return;
          event.preventDefault();
          contentRef.current?.focus();
        }}
        onCloseAutoFocus={(event) => {
          if (!returnFocus) return;
          event.preventDefault();
          returnFocus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{state.title}</DialogTitle>
          <DialogDescription className={state.description ? undefined : 'sr-only'}>
            {state.description ?? state.title}
          </DialogDescription>
        </DialogHeader>
        {state.fields ? (
          renderForm({
            fields: state.fields,
            schema: state.schema,
            call: state.call,
            params: state.params,
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
  );
}
