import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Form } from '@/components/form/form';
import type { TFormSchema } from '@/components/form/types';
import type { TFormFields } from '@/components/form/types';
import { newPasswordField } from '@/features/account/lib/password-field';
import { finishSignIn } from './sign-in-answer';

/**
 * The fields both sign-up forms share: name, email, new password and the hidden bot trap. Their
 * rules are the form's schema (ZSignUp, ZInvitedSignUpNew).
 */
export function useSignupFields(extra: TFormFields = {}, email?: string): TFormFields {
  const { t } = useTranslation('signup');
  return {
    name: { type: 'text', label: t('signup:form.name') },
    email: { type: 'email', label: t('signup:form.email'), value: email },
    password: newPasswordField(t('signup:form.password'), t('signup:form.passwordHint')),
    // A bot trap (spec section 5): people never see it, so it is always sent empty; a bot that
    // fills every input gets refused by the server.
    confirm_password: { type: 'hidden', value: '' },
    ...extra,
  };
}

/**
 * A sign-up form: the server answers with a signed-in session (`{ token, …user }`), which is stored
 * before routing on as after any sign-in (spec section 4), or, for an existing user with two-factor
 * on (an invite accepted with their password, a second account), with `2fa_required`: then the
 * one-time code screen, as after a password sign-in.
 */
export function SignupForm({
  fields,
  schema,
  call,
  buttonText,
}: {
  fields: TFormFields;
  schema: TFormSchema;
  /** `POST /api/account` (a new account) or `POST /api/user` (an invited user). */
  call: 'POST /api/account' | 'POST /api/user';
  buttonText: string;
}) {
  const { t } = useTranslation('signup');
  const navigate = useNavigate();
  return (
    <div className="space-y-6">
      <Form
        fields={fields}
        schema={schema}
        call={call}
        buttonText={buttonText}
        className="[&_button[type=submit]]:w-full"
        onSuccess={(response) => finishSignIn(response.data, (to, options) => void navigate(to, options))}
      />
      <p className="text-center text-sm text-muted-foreground">
        {t('form.haveAccount')}{' '}
        <Link
          to="/signin"
          className="font-medium text-primary underline underline-offset-4 hover:no-underline"
        >
          {t('form.signIn')}
        </Link>
      </p>
    </div>
  );
}
