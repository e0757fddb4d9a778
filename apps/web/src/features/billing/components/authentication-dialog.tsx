import { useTranslation } from 'react-i18next';
import { ShieldCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { answerAuthentication, useAuthenticationOpen } from '../lib/authentication';

/**
 * The local card processor's stand-in for the bank's 3-D Secure page: the payment goes on only
 * when the user completes it. Closing the dialog any other way fails the authentication.
 */
export function AuthenticationDialog() {
  const { t } = useTranslation('billing');
  const open = useAuthenticationOpen();
  return (
    <Dialog open={open} onOpenChange={(next) => !next && answerAuthentication('fail')}>
      <DialogContent>
        <div className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-primary" aria-hidden="true" />
          <DialogTitle className="text-lg font-semibold">{t('authenticate.title')}</DialogTitle>
        </div>
        <DialogDescription className="text-sm text-muted-foreground">
          {t('authenticate.text')}
        </DialogDescription>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => answerAuthentication('fail')}>
            {t('authenticate.fail')}
          </Button>
          <Button onClick={() => answerAuthentication('complete')}>{t('authenticate.complete')}</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
