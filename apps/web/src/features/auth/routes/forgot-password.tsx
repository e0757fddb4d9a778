import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MailCheck } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import type { TFormField } from '@/components/form/types';
import { keepFocus } from '@/features/auth/components/keep-focus';
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
  const fields = useMemo<Record<string, TFormField>>(
    () => ({ email: { type: 'email', label: t('signin.email') } }),
    [t],
  );

  return (
    <div className="grid gap-6">
      <div>
        <PageHeading className="mb-2" />
        <p className="text-sm text-muted-foreground">{t('forgot.description')}</p>
      </div>
      {sentTo === null ? (
        <AuthForm
          fields={fields}
          schema={loadResetRequestSchema}
          call="POST /api/auth/password/reset/request"
          buttonText={t('forgot.submit')}
          onSuccess={(_response, values) => setSentTo(String(values.email ?? ''))}
        />
      ) : (
        <div role="status" className="grid gap-2 rounded-lg border bg-card p-4 text-card-foreground">
          <p className="flex items-center gap-2 font-medium">
            <MailCheck className="size-4" aria-hidden="true" />
            {t('forgot.sentTitle')}
          </p>
          <p className="text-sm text-muted-foreground">{t('forgot.sentText', { email: sentTo })}</p>
        </div>
      )}
      <p className="text-center text-sm">
        <Link
          to="/signin"
          onMouseDown={keepFocus}
          className="text-primary underline underline-offset-4 hover:text-primary/80"
        >
          {t('backToSignIn')}
        </Link>
      </p>
    </div>
  );
}
