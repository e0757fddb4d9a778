import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MailCheck } from 'lucide-react';
import {
  AuthPageIntro,
  BackToSignIn,
  MailSentNotice,
  useEmailFields,
} from '@/features/auth/components/auth-page';
import { AuthForm } from '@/features/auth/components/auth-form';

// The request schema loads after the route, like the sign-in page's (zod stays out of its chunk).
const loadResetRequestSchema = () => import('@air/shared/schemas/auth').then((m) => m.ZPasswordResetRequest);

/**
 * `/forgotpassword`: asks for the address and sends the reset mail
 * (`POST /api/auth/password/reset/request`). The notice never says whether the address has an
 * account, so the page cannot be used to find out who is registered.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const fields = useEmailFields();

  return (
    <div className="grid gap-6">
      <AuthPageIntro text={t('forgot.description')} />
      {sentTo === null ? (
        <AuthForm
          fields={fields}
          schema={loadResetRequestSchema}
          call="POST /api/auth/password/reset/request"
          buttonText={t('forgot.submit')}
          onSuccess={(_response, values) => setSentTo(String(values.email ?? ''))}
        />
      ) : (
        <MailSentNotice
          icon={MailCheck}
          title={t('forgot.sentTitle')}
          text={t('forgot.sentText', { email: sentTo })}
        />
      )}
      <BackToSignIn />
    </div>
  );
}
