import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '@/components/layout/page-heading';
import { SignupForm, useSignupFields } from '@/features/auth/components/signup-form';

/**
 * /signup/user?invite_id=…: an invited person creates their user (POST /api/user) and joins the
 * inviting account with the invite's permission. The invite link may carry the email to prefill.
 */
export default function SignupUserPage() {
  const { t } = useTranslation('signup');
  const [params] = useSearchParams();
  const inviteId = params.get('invite_id') ?? '';
  const fields = useSignupFields(
    { invite_id: { type: 'hidden', value: inviteId } },
    params.get('email') ?? undefined,
  );
  return (
    <>
      <PageHeading className="mb-2" />
      {inviteId ? (
        <>
          <p className="mb-6 text-sm text-muted-foreground">{t('form.inviteIntro')}</p>
          <SignupForm fields={fields} url="/api/user" buttonText={t('form.join')} />
        </>
      ) : (
        <p role="alert" className="text-sm text-destructive">
          {t('form.inviteMissing')}
        </p>
      )}
    </>
  );
}
