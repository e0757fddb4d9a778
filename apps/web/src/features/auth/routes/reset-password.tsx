import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '@air/shared/validation';
import { toast } from '@/components/ui/use-toast';
import type { TFormField } from '@/components/form/types';
import { AuthPageIntro, BackToSignIn } from '@/features/auth/components/auth-page';
import { AuthForm } from '@/features/auth/components/auth-form';
import { StatusPanel } from '@/features/auth/components/status-panel';

// The request schema loads after the route, like the sign-in page's (zod stays out of its chunk).
const loadResetSchema = () => import('@air/shared/schemas/auth').then((m) => m.ZPasswordReset);

/**
 * `/resetpassword?token=&email=`: the link from the reset mail. A new complex password
 * (spec section 5) goes with the token and address to `POST /api/auth/password/reset`; then back to
 * /signin with a success notice.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const jwt = params.get('token') ?? '';
  const email = params.get('email') ?? '';

  const fields = useMemo<Record<string, TFormField>>(
    () => ({
      password: {
        type: 'password',
        label: t('reset.password'),
        autoComplete: 'new-password',
        description: t('reset.passwordHint', { min: PASSWORD_MIN_LENGTH }),
      },
      jwt: { type: 'hidden', value: jwt },
      email: { type: 'hidden', value: email },
    }),
    [t, jwt, email],
  );

  if (!jwt || !email) {
    return (
      <StatusPanel
        title={t('reset.incompleteTitle')}
        description={t('reset.incompleteText')}
        back={{ to: '/forgotpassword', label: t('reset.requestNew') }}
      />
    );
  }

  return (
    <div className="grid gap-6">
      <AuthPageIntro text={t('reset.description', { email })} />
      <AuthForm
        fields={fields}
        schema={loadResetSchema}
        call="POST /api/auth/password/reset"
        buttonText={t('reset.submit')}
        onSuccess={(response) => {
          // The form already shows the server's own message when it sends one.
          if (!response.message) {
            toast({ variant: 'success', title: t('reset.doneTitle'), description: t('reset.doneText') });
          }
          void navigate('/signin', { replace: true });
        }}
      />
      <BackToSignIn />
    </div>
  );
}
