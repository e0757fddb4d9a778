import { useTranslation } from 'react-i18next';
import { ZSignUp } from '@air/shared/schemas/account';
import { PageHeading } from '@/components/layout/page-heading';
import { SignupForm, useSignupFields } from '@/features/auth/components/signup-form';

/** /signup: a new account and its owner (POST /api/account), signed in on success. */
export default function SignupPage() {
  const { t } = useTranslation('signup');
  const fields = useSignupFields();
  return (
    <>
      <PageHeading className="mb-2" />
      <p className="mb-6 text-sm text-muted-foreground">{t('form.intro')}</p>
      <SignupForm fields={fields} schema={ZSignUp} call="POST /api/account" buttonText={t('form.submit')} />
    </>
  );
}
