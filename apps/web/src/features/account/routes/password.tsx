import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZPasswordChange } from '@air/shared/schemas/user';
import { Form } from '@/components/form/form';
import type { TFormFields } from '@/components/form/types';
import { PageHeading } from '@/components/layout/page-heading';
import { toast } from '@/components/ui/use-toast';
import { newPasswordField } from '@/features/account/lib/password-field';
import { setSession, updateUser, useSession, type TSessionUser } from '@/lib/session';

/**
 * /account/password (PUT /api/user/password): the old password is asked only when the user has
 * one (spec section 5); the new one must be complex. The server revokes the user's other sessions.
 */
export default function PasswordPage() {
  const { t } = useTranslation('account');
  const { user } = useSession();
  const hasPassword = user?.has_password !== false;
  const [generation, setGeneration] = useState(0);

  const fields: TFormFields = {
    oldpassword: { type: hasPassword ? 'password' : null, label: t('password.old') },
    newpassword: newPasswordField(t('password.new'), t('password.hint')),
    has_password: { type: 'hidden', value: hasPassword },
  };

  return (
    <>
      <PageHeading />
      <div className="max-w-xl">
        <p className="mb-6 text-sm text-muted-foreground">
          {hasPassword ? t('password.changeIntro') : t('password.createIntro')}
        </p>
        <Form
          key={`${generation}-${hasPassword}`}
          fields={fields}
          schema={ZPasswordChange}
          call="PUT /api/user/password"
          buttonText={hasPassword ? t('password.change') : t('password.create')}
          onSuccess={(response) => {
            const data = (
              response.data && typeof response.data === 'object' ? response.data : {}
            ) as TSessionUser & {
              token?: string;
            };
            // A fresh token may come back when the server rotates this session with the others.
            if (typeof data.token === 'string' && user) setSession({ ...user, ...data, has_password: true });
            else updateUser({ has_password: true });
            if (!response.message) toast({ variant: 'success', title: t('password.saved') });
            setGeneration((n) => n + 1);
          }}
        />
      </div>
    </>
  );
}
