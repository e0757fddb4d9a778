import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZTwoFactorOff } from '@air/shared/schemas/two-factor';
import { Form } from '@/components/form/form';
import { PageHeading } from '@/components/layout/page-heading';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { CopyButton } from '@/features/account/components/copy-button';
import {
  readSetup,
  TwoFactorSetup,
  type TTwoFactorView,
} from '@/features/account/components/two-factor-setup';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { updateUser, useSession } from '@/lib/session';

type TStep =
  | { kind: 'off' }
  | { kind: 'setup'; setup: TTwoFactorView }
  | { kind: 'backup'; code: string }
  | { kind: 'on' }
  | { kind: 'confirmOff' };

/**
 * /account/2fa (spec section 4): off → switch on (PUT /api/user/2fa) shows the QR code and the
 * secret → a verified code enables it and shows the backup code once → on; switching off asks for
 * a current code (or the backup code) before it disables.
 */
export default function TwoFactorPage() {
  const { t } = useTranslation('account');
  const handleError = useErrorHandler();
  const { user } = useSession();
  const [step, setStep] = useState<TStep>(user?.['2fa_enabled'] ? { kind: 'on' } : { kind: 'off' });
  const [busy, setBusy] = useState(false);

  async function toggle(enable: boolean) {
    if (!enable && step.kind === 'on') {
      setStep({ kind: 'confirmOff' });
      return;
    }
    if (!enable && step.kind === 'confirmOff') {
      setStep({ kind: 'on' });
      return;
    }
    setBusy(true);
    try {
      const res = await call('PUT /api/user/2fa', { body: { '2fa_enabled': enable } });
      if (enable) {
        setStep({ kind: 'setup', setup: readSetup(res.data) });
      } else {
        updateUser({ '2fa_enabled': false });
        setStep({ kind: 'off' });
        toast({ variant: 'success', title: res.message ?? t('twoFactor.disabled') });
      }
    } catch (error) {
      handleError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageHeading />
      <div className="max-w-xl space-y-6">
        <p className="text-sm text-muted-foreground">
          {step.kind === 'on' ? t('twoFactor.onText') : t('twoFactor.intro')}
        </p>
        {step.kind !== 'backup' && (
          <div className="flex items-center gap-3">
            <Switch
              id="two-factor-toggle"
              checked={step.kind !== 'off'}
              disabled={busy}
              onCheckedChange={(checked) => void toggle(checked)}
            />
            <Label htmlFor="two-factor-toggle">
              {step.kind === 'off' ? t('twoFactor.toggle') : t('twoFactor.toggleOn')}
            </Label>
          </div>
        )}
        {step.kind === 'setup' && (
          <TwoFactorSetup
            setup={step.setup}
            onVerified={(code) => {
              updateUser({ '2fa_enabled': true });
              toast({ variant: 'success', title: t('twoFactor.enabled') });
              setStep({ kind: 'backup', code });
            }}
          />
        )}
        {step.kind === 'confirmOff' && (
          <div className="space-y-4 rounded-lg border p-6">
            <p className="text-sm">{t('twoFactor.offText')}</p>
            <Form
              fields={{
                '2fa_enabled': { type: 'hidden', value: false },
                code: { type: 'text', label: t('twoFactor.offCode') },
              }}
              schema={ZTwoFactorOff}
              call="PUT /api/user/2fa"
              buttonText={t('twoFactor.turnOff')}
              cancel={() => setStep({ kind: 'on' })}
              onSuccess={(response) => {
                updateUser({ '2fa_enabled': false });
                setStep({ kind: 'off' });
                toast({ variant: 'success', title: response.message ?? t('twoFactor.disabled') });
              }}
            />
          </div>
        )}
        {step.kind === 'backup' && (
          <section aria-labelledby="backup-code-title" className="space-y-4 rounded-lg border p-6">
            <h2 id="backup-code-title" className="text-lg font-semibold">
              {t('twoFactor.backupTitle')}
            </h2>
            <p className="text-sm text-muted-foreground">{t('twoFactor.backupText')}</p>
            <code
              data-testid="backup-code"
              className="block rounded-md bg-muted px-3 py-2 text-center font-mono text-lg tracking-widest break-all"
            >
              {step.code}
            </code>
            <div className="flex flex-wrap gap-2">
              <CopyButton text={step.code} label={t('twoFactor.copy')} />
              <Button size="sm" onClick={() => setStep({ kind: 'on' })}>
                {t('twoFactor.done')}
              </Button>
            </div>
          </section>
        )}
      </div>
    </>
  );
}
