import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '@/lib/api';
import { errorParamText } from '@/features/auth/components/error-param';
import { finishSignIn } from '@/features/auth/components/sign-in-answer';
import { runOnce } from '@/features/auth/components/run-once';
import { StatusPanel } from '@/features/auth/components/status-panel';

/**
 * `/signin/social?provider=&token=`: where the OpenID callback lands. The 5-minute single-use
 * token is posted to `POST /api/auth`; success signs in (or asks for the second factor), any
 * failure or an `error` parameter shows "Something Went Wrong" with a way back (spec section 2).
 */
export default function SigninSocialPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const errorParam = params.get('error');
  const failedUpfront = Boolean(errorParam) || !token;
  const [failed, setFailed] = useState(failedUpfront);
  // The reason, when the server gave one (e.g. no account uses the provider's email: the
  // contract asks for a clear message there), shown under the spec's fixed text.
  const [reason, setReason] = useState(errorParam ? errorParamText(errorParam) : '');
  const provider = params.get('provider') ?? '';

  useEffect(() => {
    if (failedUpfront || !token) return;
    let active = true;
    runOnce(`social:${token}`, () => call('POST /api/auth', { body: { token } })).then(
      (response) => {
        if (active) finishSignIn(response.data, (to, options) => void navigate(to, options));
      },
      (error: unknown) => {
        if (!active) return;
        const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
        if (typeof body?.message === 'string') setReason(body.message);
        setFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, [failedUpfront, token, navigate]);

  if (failed) {
    return (
      <StatusPanel
        title={t('social.failedTitle')}
        description={t('social.failedText')}
        back={{ to: '/signin', label: t('back') }}
      >
        {reason && <p className="text-sm text-muted-foreground">{reason}</p>}
      </StatusPanel>
    );
  }
  return <StatusPanel busy title={t('social.signingIn', { provider: providerLabel(provider) })} />;
}

function providerLabel(name: string): string {
  const clean = name.replace(/[^a-z0-9 _-]/gi, '').slice(0, 40);
  return clean ? clean.charAt(0).toUpperCase() + clean.slice(1) : '…';
}
