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
import type { TDialogFormRenderer, TDialogState } from '@/app/dialog-provider';

/** The shared dialog's view: a confirmation, or a form when the state carries fields. */
export default function DialogView({
  state,
  close,
  renderForm,
}: {
  state: TDialogState;
  close: (result?: unknown) => void;
  renderForm: TDialogFormRenderer;
}) {
  const { t } = useTranslation();
  return (
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
  );
}
