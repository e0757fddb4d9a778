import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api';
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
  const failedUpfront = Boolean(params.get('error')) || !token;
  const [failed, setFailed] = useState(failedUpfront);
  const provider = params.get('provider') ?? '';

  useEffect(() => {
    if (failedUpfront || !token) return;
    let active = true;
    runOnce(`social:${token}`, () => api.post('/api/auth', { token })).then(
      (response) => {
        if (active) finishSignIn(response.data, (to, options) => void navigate(to, options));
      },
      () => {
        if (active) setFailed(true);
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
      />
    );
  }
  return <StatusPanel busy title={t('social.signingIn', { provider: providerLabel(provider) })} />;
}

function providerLabel(name: string): string {
  const clean = name.replace(/[^a-z0-9 _-]/gi, '').slice(0, 40);
  return clean ? clean.charAt(0).toUpperCase() + clean.slice(1) : '…';
}
