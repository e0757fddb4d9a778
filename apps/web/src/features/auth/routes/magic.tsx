import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { call } from '@/lib/api';
import { finishSignIn } from '@/features/auth/components/sign-in-answer';
import { runOnce } from '@/features/auth/components/run-once';
import { StatusPanel } from '@/features/auth/components/status-panel';

/**
 * `/magic?token=`: the link from the magic-link mail. The single-use token is posted to
 * `POST /api/auth/magic/verify`; a used, expired or missing token shows "Magic Link Is Invalid".
 */
export default function MagicPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [invalid, setInvalid] = useState(!token);

  useEffect(() => {
    if (!token) return;
    let active = true;
    runOnce(`magic:${token}`, () => call('POST /api/auth/magic/verify', { body: { token } })).then(
      (response) => {
        if (active) finishSignIn(response.data, (to, options) => void navigate(to, options));
      },
      () => {
        if (active) setInvalid(true);
      },
    );
    return () => {
      active = false;
    };
  }, [token, navigate]);

  if (invalid) {
    return (
      <StatusPanel
        title={t('magic.invalidTitle')}
        description={t('magic.invalidText')}
        back={{ to: '/signin', label: t('back') }}
      />
    );
  }
  return <StatusPanel busy title={t('magic.verifying')} />;
}
