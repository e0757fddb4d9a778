import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { call } from '@/lib/api';
import { finishSignIn } from '@/features/auth/components/sign-in-answer';
import { runOnce } from '@/features/auth/components/run-once';
import { StatusPanel } from '@/features/auth/components/status-panel';

/**
 * `/signin/impersonate?token=`: a master's 5-minute link (`npm run cli -- impersonate EMAIL`).
 * Success signs in as the user; any failure goes to /404 (spec section 8), telling a stranger
 * holding a stale link nothing.
 */
export default function ImpersonatePage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');

  useEffect(() => {
    if (!token) {
      void navigate('/404', { replace: true });
      return;
    }
    let active = true;
    runOnce(`impersonate:${token}`, () => call('POST /api/auth/impersonate', { body: { token } })).then(
      (response) => {
        if (active) finishSignIn(response.data, (to, options) => void navigate(to, options));
      },
      () => {
        if (active) void navigate('/404', { replace: true });
      },
    );
    return () => {
      active = false;
    };
  }, [token, navigate]);

  return <StatusPanel busy title={t('impersonate.signingIn')} />;
}
