import { useTranslation } from 'react-i18next';
import { REGEXP_ONLY_DIGITS } from 'input-otp';
import { ZTwoFactorVerify } from '@air/shared/schemas/two-factor';
import { Form } from '@/components/form/form';
import { CopyButton } from '@/features/account/components/copy-button';
import type { TTwoFactorSetup } from '@air/shared/schemas/two-factor';

/** What the set-up step shows: the QR code image and the secret to type by hand. */
export interface TTwoFactorView {
  qrCode: string;
  secret: string | null;
}

/** Reads `PUT /api/user/2fa { 2fa_enabled: true }`'s answer. */
export function readSetup(data: TTwoFactorSetup | undefined): TTwoFactorView {
  return { qrCode: data?.qr_code ?? '', secret: data?.secret ?? null };
}

/**
 * The QR code with the secret as text beside it (for typing into an app, or for a test), then
 * the first code from the app (OTP, 3+3 slots): POST /api/user/2fa/verify answers the backup code.
 */
export function TwoFactorSetup({
  setup,
  onVerified,
}: {
  setup: TTwoFactorView;
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
            pattern: REGEXP_ONLY_DIGITS,
          },
        }}
        schema={ZTwoFactorVerify}
        call="POST /api/user/2fa/verify"
        buttonText={t('twoFactor.verify')}
        onSuccess={(response) => {
          onVerified(response.data.backup_code);
        }}
      />
    </div>
  );
}
