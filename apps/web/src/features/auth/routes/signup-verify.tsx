import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Loader2, MailCheck, MailWarning } from 'lucide-react';
import { routeAfterSignIn } from '@air/shared/route-guard';
import { PageHeading } from '@/components/layout/page-heading';
import { Button } from '@/components/ui/button';
import { ApiError, call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { clearSession, getSession, updateUser, useSession } from '@/lib/session';
import { takeReturnAfterSignup } from '@/lib/return-after-signup';

type TState = 'info' | 'verifying' | 'expired' | 'resent';

/**
 * /signup/verify (spec sections 2 and 4): without a token it tells the user to check their mail
 * (info, with re-send); with `?token=` it verifies (verifying), then routes on as after sign-in. A
 * 401 signs the user out; any other failure is the expired-link state, with re-send.
 */
export default function SignupVerifyPage() {
  const { t } = useTranslation('signup');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const { user } = useSession();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<TState>(token ? 'verifying' : 'info');
  const [sending, setSending] = useState(false);
  // React's development double effect must not spend the single-use token twice.
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (!token || started.current === token) return;
    started.current = token;
    setState('verifying');
    call('POST /api/user/verify', { body: { token } })
      .then((res) => {
        updateUser({ ...res.data, verified: true });
        const next = getSession().user;
        const after = routeAfterSignIn({
          verified: true,
          plan: next?.plan ?? null,
          onboarded: next?.onboarded === true,
        });
        // Signed up from a page (an endpoint's "Sign up to call it"): back to it once a plan is chosen.
        const back = after === '/signup/plan' ? null : takeReturnAfterSignup();
        void navigate(back ?? after, { replace: true });
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) {
          clearSession();
          void navigate('/signin', { replace: true });
          return;
        }
        setState('expired');
      });
  }, [token, navigate]);

  async function resend() {
    setSending(true);
    try {
      await call('POST /api/user/verify/request');
      setState('resent');
    } catch (error) {
      handleError(error);
    } finally {
      setSending(false);
    }
  }

  const resendButton = (
    <Button className="w-full" onClick={() => void resend()} loading={sending}>
      {t('verify.resend')}
    </Button>
  );

  if (state === 'verifying') {
    return (
      <div role="status" className="flex flex-col items-center gap-3 py-10 text-center">
        <Loader2 className="size-8 animate-spin text-muted-foreground" aria-hidden="true" />
        <p>{t('verify.verifying')}</p>
      </div>
    );
  }

  if (state === 'expired') {
    return (
      <div className="space-y-4">
        <MailWarning className="size-10 text-destructive" aria-hidden="true" />
        <h1 className="text-2xl font-semibold tracking-tight">{t('verify.expiredTitle')}</h1>
        <p className="text-sm text-muted-foreground">{t('verify.expiredText')}</p>
        {resendButton}
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <MailCheck className="size-10 text-primary" aria-hidden="true" />
      <PageHeading className="mb-2" />
      {state === 'resent' ? (
        <div role="status" className="rounded-md border border-primary/40 bg-primary/5 p-4">
          <p className="font-medium">{t('verify.resentTitle')}</p>
          <p className="text-sm text-muted-foreground">{t('verify.resentText')}</p>
        </div>
      ) : (
        <>
          <p className="font-medium">{t('verify.infoTitle')}</p>
          <p className="text-sm text-muted-foreground">
            {user?.email ? t('verify.infoText', { email: user.email }) : t('verify.infoTextNoEmail')}
          </p>
        </>
      )}
      {resendButton}
      <p className="text-sm text-muted-foreground">
        {t('verify.wrongEmail')}{' '}
        <Link
          to="/account/profile"
          className="font-medium text-primary underline underline-offset-4 hover:no-underline"
        >
          {t('verify.editProfile')}
        </Link>
      </p>
    </div>
  );
}
