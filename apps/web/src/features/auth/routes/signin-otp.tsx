import { useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { REGEXP_ONLY_DIGITS } from 'input-otp';
import { OTP_LENGTH } from '@air/shared/validation';
import { Button } from '@/components/ui/button';
import { InputOTP, InputOTPGroup, InputOTPSeparator, InputOTPSlot } from '@/components/ui/input-otp';
import type { TFormField } from '@/components/form/types';
import { keepFocus } from '@/features/auth/components/keep-focus';
import { AuthLink, AuthPageIntro } from '@/features/auth/components/auth-page';
import { AuthForm, type TAuthControlProps } from '@/features/auth/components/auth-form';
import { finishSignIn, type TOtpRouteState } from '@/features/auth/components/sign-in-answer';
import { StatusPanel } from '@/features/auth/components/status-panel';

const HALF = OTP_LENGTH / 2;

/** Six digit slots in two groups of three (spec section 5). */
function OtpSlots(props: TAuthControlProps) {
  return (
    <InputOTP
      id={props.id}
      name={props.name}
      maxLength={OTP_LENGTH}
      pattern={REGEXP_ONLY_DIGITS}
      value={props.value}
      onChange={props.onChange}
      onBlur={props.onBlur}
      autoComplete="one-time-code"
      autoFocus
      aria-invalid={props.invalid || undefined}
      aria-describedby={props.describedBy}
    >
      <InputOTPGroup>
        {Array.from({ length: HALF }, (_, i) => (
          <InputOTPSlot key={i} index={i} />
        ))}
      </InputOTPGroup>
      <InputOTPSeparator />
      <InputOTPGroup>
        {Array.from({ length: HALF }, (_, i) => (
          <InputOTPSlot key={i} index={HALF + i} />
        ))}
      </InputOTPGroup>
    </InputOTP>
  );
}

// The request schema loads after the route, like the sign-in page's (zod stays out of its chunk).
const loadOtpSchema = () => import('@air/shared/schemas/two-factor').then((m) => m.ZOtpSignInCode);
const loadBackupSchema = () => import('@air/shared/schemas/two-factor').then((m) => m.ZOtpSignIn);

/**
 * `/signin/otp`: the second factor. The temporary token comes in router state from the first
 * factor (or `?token=` for a link); the code is an authenticator code or, after switching, a
 * backup code. Both go to `POST /api/auth/otp { code, jwt }`.
 */
export default function SigninOtpPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [backup, setBackup] = useState(false);
  const state = location.state as Partial<TOtpRouteState> | null;
  const jwt = (typeof state?.otpToken === 'string' && state.otpToken) || params.get('token') || '';

  const fields = useMemo<Record<string, TFormField>>(
    () =>
      backup
        ? {
            code: { type: 'text', label: t('otp.backupLabel') },
            jwt: { type: 'hidden', value: jwt },
          }
        : {
            code: { type: 'otp', label: t('otp.codeLabel') },
            jwt: { type: 'hidden', value: jwt },
          },
    [backup, jwt, t],
  );

  if (!jwt) {
    return (
      <StatusPanel
        title={t('otp.missingTitle')}
        description={t('otp.missingText')}
        back={{ to: '/signin', label: t('back') }}
      />
    );
  }

  return (
    <div className="grid gap-6">
      <AuthPageIntro text={backup ? t('otp.backupDescription') : t('otp.description')} />
      <AuthForm
        key={backup ? 'backup' : 'code'}
        fields={fields}
        schema={backup ? loadBackupSchema : loadOtpSchema}
        call="POST /api/auth/otp"
        buttonText={t('otp.submit')}
        controls={backup ? undefined : { code: OtpSlots }}
        onSuccess={(response) => finishSignIn(response.data, (to, options) => void navigate(to, options))}
      />
      <div className="grid justify-items-center gap-2 text-sm">
        <Button
          type="button"
          variant="link"
          onMouseDown={keepFocus}
          className="h-auto p-0"
          onClick={() => setBackup(!backup)}
        >
          {backup ? t('otp.useCode') : t('otp.useBackup')}
        </Button>
        <AuthLink
          to="/signin"
          className="text-muted-foreground no-underline hover:text-muted-foreground hover:underline"
        >
          {t('back')}
        </AuthLink>
      </div>
    </div>
  );
}
