import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Mail, UserX, X } from 'lucide-react';
import type { TRemovalNotice } from '@air/shared/schemas/common';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import type { TFormField } from '@/components/form/types';
import { keepFocus } from '@/features/auth/components/keep-focus';
import {
  AuthLink,
  AuthPageIntro,
  MailSentNotice,
  useEmailFields,
} from '@/features/auth/components/auth-page';
import { AuthForm } from '@/features/auth/components/auth-form';
import { errorParamText } from '@/features/auth/components/error-param';
import { finishSignIn } from '@/features/auth/components/sign-in-answer';
import { SocialButtons } from '@/features/auth/components/social-buttons';
import { setEndedNotice, useEndedNotice } from '@/lib/session';

type TMode = 'password' | 'magic';

/** What the sign-in page says, by why the session ended. */
const ENDED_TEXT = {
  removed: 'removal.endedRemoved',
  left: 'removal.endedLeft',
  closed: 'removal.endedClosed',
} as const satisfies Record<TRemovalNotice['reason'], string>;

// The request schemas load after the route (zod is not part of the sign-in route's budget).
const loadSignInSchema = () => import('@air/shared/schemas/auth').then((m) => m.ZSignIn);
const loadMagicLinkSchema = () => import('@air/shared/schemas/magic-link').then((m) => m.ZMagicLinkRequest);

/** `/` and `/signin`: password or magic-link sign-in, social buttons, links to sign up, reset and the public marketplace. */
export default function SigninPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [mode, setMode] = useState<TMode>('password');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const shownError = useRef<string | null>(null);
  // A member removed from their only account (or whose account was closed) lands here: say why
  // (issue 26), also after a reload, until a sign-in or a dismissal (lib/session.ts).
  const ended = useEndedNotice();

  // Spec section 8: an error query parameter shows an error notification, once. The parameter is
  // then dropped so a reload does not repeat it.
  const errorParam = params.get('error');
  useEffect(() => {
    if (!errorParam || shownError.current === errorParam) return;
    shownError.current = errorParam;
    toast({ variant: 'error', title: t('signin.failedTitle'), description: errorParamText(errorParam) });
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [errorParam, setParams, t]);

  const passwordFields = useMemo<Record<string, TFormField>>(
    () => ({
      email: { type: 'email', label: t('signin.email') },
      password: { type: 'password', label: t('signin.password') },
    }),
    [t],
  );
  const magicFields = useEmailFields();

  return (
    <div className="grid gap-6">
      {ended && (
        <div
          role="status"
          data-testid="session-ended"
          className="relative grid gap-1 rounded-lg border border-destructive/40 bg-card p-4 pr-10 text-card-foreground"
        >
          <p className="flex items-center gap-2 font-medium">
            <UserX className="size-4" aria-hidden="true" />
            {t('signin.endedTitle')}
          </p>
          <p className="text-sm">{t(ENDED_TEXT[ended.reason], { account: ended.account_name })}</p>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="absolute top-2 right-2 h-8 w-8"
            aria-label={t('signin.endedDismiss')}
            onClick={() => setEndedNotice(null)}
          >
            <X className="size-4" aria-hidden="true" />
          </Button>
        </div>
      )}
      <AuthPageIntro text={mode === 'password' ? t('signin.description') : t('signin.magicDescription')} />

      {mode === 'password' && (
        <AuthForm
          key="password"
          fields={passwordFields}
          schema={loadSignInSchema}
          call="POST /api/auth"
          buttonText={t('signin.submit')}
          onSuccess={(response) => finishSignIn(response.data, (to, options) => void navigate(to, options))}
        />
      )}

      {mode === 'magic' && sentTo === null && (
        <AuthForm
          key="magic"
          fields={magicFields}
          schema={loadMagicLinkSchema}
          call="POST /api/auth/magic"
          buttonText={t('signin.magicSubmit')}
          onSuccess={(_response, values) => setSentTo(String(values.email ?? ''))}
        />
      )}

      {mode === 'magic' && sentTo !== null && (
        <MailSentNotice
          icon={Mail}
          title={t('signin.magicSentTitle')}
          text={t('signin.magicSentText', { email: sentTo })}
        >
          <Button variant="outline" size="sm" className="justify-self-start" onClick={() => setSentTo(null)}>
            {t('signin.magicAgain')}
          </Button>
        </MailSentNotice>
      )}

      <Button
        type="button"
        variant="link"
        onMouseDown={keepFocus}
        className="h-auto justify-self-center p-0"
        onClick={() => {
          setSentTo(null);
          setMode(mode === 'password' ? 'magic' : 'password');
        }}
      >
        {mode === 'password' ? t('signin.useMagic') : t('signin.usePassword')}
      </Button>

      <SocialButtons />

      <div className="grid gap-2 text-center text-sm">
        <AuthLink to="/forgotpassword">{t('signin.forgot')}</AuthLink>
        <p className="text-muted-foreground">
          {t('signin.noAccount')}{' '}
          <AuthLink to="/signup" className="font-medium">
            {t('signin.signup')}
          </AuthLink>
        </p>
        <p>
          <AuthLink to="/marketplace">{t('signin.browseCatalog')}</AuthLink>
        </p>
      </div>
    </div>
  );
}
