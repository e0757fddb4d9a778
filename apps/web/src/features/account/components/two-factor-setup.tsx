import { useTranslation } from 'react-i18next';
import { REGEXP_ONLY_DIGITS } from 'input-otp';
import { Form } from '@/components/form/form';
import { CopyButton } from '@/features/account/components/copy-button';

export interface TTwoFactorSetup {
  qrCode: string;
  secret: string | null;
}

/** The secret from the answer, or from the otpauth:// URI when only that is given. */
function secretOf(data: Record<string, unknown>): string | null {
  if (typeof data.secret === 'string' && data.secret) return data.secret;
  for (const key of ['otpauth_url', 'otpauth', 'uri']) {
    const uri = data[key];
    if (typeof uri === 'string') {
      const match = /[?&]secret=([^&]+)/.exec(uri);
      if (match?.[1]) return decodeURIComponent(match[1]);
    }
  }
  return null;
}

/** A QR code image source: a data or http URL as is, inline SVG markup as a data URL. */
function imageSource(qr: string): string {
  return qr.trimStart().startsWith('<svg')
    ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}`
    : qr;
}

/** Reads `PUT /api/user/2fa { 2fa_enabled: true }`'s answer. */
export function readSetup(data: unknown): TTwoFactorSetup {
  const body = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const qr = typeof body.qr_code === 'string' ? body.qr_code : '';
  return { qrCode: qr ? imageSource(qr) : '', secret: secretOf(body) };
}

/**
 * The QR code with the secret as text beside it (for typing into an app, or for a test), then
 * the first code from the app (OTP, 3+3 slots): POST /api/user/2fa/verify answers the backup code.
 */
export function TwoFactorSetup({
  setup,
  onVerified,
}: {
  setup: TTwoFactorSetup;
  onVerified: (backupCode: string) => void;
}) {
  const { t } = useTranslation(['account']);
  return (
    <div className="space-y-6 rounded-lg border p-6">
      <p className="text-sm">{t('twoFactor.scan')}</p>
      <div className="flex flex-col gap-6 sm:flex-row sm:items-center">
        {setup.qrCode && (
          <img
            src={setup.qrCode}
            alt={t('twoFactor.qrAlt')}
            width={200}
            height={200}
            className="size-[200px] shrink-0 rounded-md border bg-white p-2"
          />
        )}
        {setup.secret && (
          <div className="min-w-0 space-y-2">
            <p className="text-sm font-medium" id="two-factor-secret-label">
              {t('twoFactor.secret')}
            </p>
            <code
              aria-labelledby="two-factor-secret-label"
              data-testid="two-factor-secret"
              className="block rounded-md bg-muted px-3 py-2 font-mono text-sm break-all"
            >
              {setup.secret}
            </code>
            <CopyButton text={setup.secret} label={t('twoFactor.copySecret')} />
          </div>
        )}
      </div>
      <Form
        fields={{
          code: {
            type: 'otp',
            label: t('twoFactor.code'),
            description: t('twoFactor.codeHint'),
            required: true,
            pattern: REGEXP_ONLY_DIGITS,
          },
        }}
        url="/api/user/2fa/verify"
        method="POST"
        buttonText={t('twoFactor.verify')}
        onSuccess={(response) => {
          const data = (response.data ?? {}) as { backup_code?: unknown };
          onVerified(typeof data.backup_code === 'string' ? data.backup_code : '');
        }}
      />
    </div>
  );
}
