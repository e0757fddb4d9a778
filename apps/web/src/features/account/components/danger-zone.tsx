import { answerMessage } from '@/lib/api';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ZPasswordConfirm } from '@air/shared/schemas/user';
import { useDialog } from '@/app/dialog-provider';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { clearSession } from '@/lib/session';

/**
 * The profile's Danger Zone. An owner closes the whole account (DELETE /api/account); anyone else
 * deletes only their own user (DELETE /api/user). Both confirm with the password in a form dialog,
 * then the session is gone on the server, so the console clears it and goes to /signin.
 */
export function DangerZone({ owner }: { owner: boolean }) {
  const { t } = useTranslation(['account', 'form']);
  const dialog = useDialog();
  const navigate = useNavigate();
  const action = owner ? t('account:danger.closeAccount') : t('account:danger.deleteUser');

  function confirm() {
    dialog.open({
      title: t('account:danger.confirmTitle'),
      description: owner ? t('account:danger.confirmOwner') : t('account:danger.confirmUser'),
      buttonText: action,
      call: owner ? 'DELETE /api/account' : 'DELETE /api/user',
      fields: {
        password: {
          type: 'password',
          label: t('account:danger.password'),
        },
      },
      schema: ZPasswordConfirm,
      callback: (result) => {
        // false means cancelled; a form answer means the server closed or deleted.
        if (!result) return;
        clearSession();
        // The form already showed the server's message; say it ourselves only when it sent none.
        if (answerMessage(result) === undefined) {
          toast({
            variant: 'success',
            title: owner ? t('account:danger.closed') : t('account:danger.deleted'),
          });
        }
        void navigate('/signin');
      },
    });
  }

  return (
    <section
      aria-labelledby="danger-zone-title"
      className="mt-10 rounded-lg border border-destructive/50 p-6"
      data-testid="danger-zone"
    >
      <h2 id="danger-zone-title" className="text-lg font-semibold text-destructive">
        {t('account:danger.title')}
      </h2>
      <p className="mt-2 mb-4 text-sm text-muted-foreground">
        {owner ? t('account:danger.ownerText') : t('account:danger.userText')}
      </p>
      <Button variant="destructive" onClick={confirm}>
        {action}
      </Button>
    </section>
  );
}
