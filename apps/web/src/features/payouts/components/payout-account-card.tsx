import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Loader2 } from 'lucide-react';
import { ZPayoutAccountUpdate, type TPayoutAccount, type TPayouts } from '@air/shared/schemas/payout';
import { errorText } from '@/components/form/error-text';
import { FORM_ERROR, useBodyForm, useBodySubmit } from '@/components/form/use-body-form';
import type { TFieldError } from '@/components/form/use-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { payoutsQuery } from '../payouts-api';

/** Where payouts go: the bank account form (local mode) or Stripe Connect onboarding (stripe mode). */
export function PayoutAccountCard({ data }: { data: TPayouts }) {
  const { t } = useTranslation('payouts');
  return (
    <Card data-testid="payout-account">
      <CardHeader>
        <CardTitle className="text-base">{t('account.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <CurrentAccount account={data.account} />
        {data.provider === 'stripe' ? (
          <StripeOnboarding account={data.account} />
        ) : (
          <BankAccountForm key={data.account?.updated_at ?? 'none'} hasAccount={data.account !== null} />
        )}
      </CardContent>
    </Card>
  );
}

function CurrentAccount({ account }: { account: TPayoutAccount | null }) {
  const { t } = useTranslation('payouts');
  if (!account) return <p className="text-sm text-muted-foreground">{t('account.none')}</p>;
  const where =
    account.method === 'stripe'
      ? t(account.ready ? 'account.stripeReady' : 'account.stripeOnboarding')
      : t(account.method === 'iban' ? 'account.iban' : 'account.usBank', {
          country: account.country ?? '',
          last4: account.last4 ?? '',
          holder: account.holder_name ?? '',
        });
  return (
    <p className="text-sm" data-testid="payout-destination">
      {where}
    </p>
  );
}

function StripeOnboarding({ account }: { account: TPayoutAccount | null }) {
  const { t } = useTranslation('payouts');
  const handleError = useErrorHandler();
  const [busy, setBusy] = React.useState(false);
  if (account?.ready) return null;
  async function start() {
    setBusy(true);
    try {
      const answer = await call('PUT /api/account/payout-account', { body: { method: 'stripe' } });
      // Stripe's hosted onboarding: it sends the owner back to this page when done.
      if (answer.data.onboarding_url) window.location.assign(answer.data.onboarding_url);
    } catch (error) {
      handleError(error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="space-y-2">
      <p className="text-sm text-muted-foreground">{t('account.stripeText')}</p>
      <Button type="button" disabled={busy} onClick={() => void start()}>
        {busy ? (
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
        ) : (
          <ExternalLink className="size-4" aria-hidden="true" />
        )}
        {t(account ? 'account.stripeContinue' : 'account.stripeStart')}
      </Button>
    </div>
  );
}

interface TBankValues {
  method: 'iban' | 'us_bank';
  holder_name: string;
  iban: string;
  routing_number: string;
  account_number: string;
}

const FIELDS = ['holder_name', 'iban', 'routing_number', 'account_number'] as const;
const fieldOf = (path: string) => ((FIELDS as readonly string[]).includes(path) ? path : undefined);

function toBody(values: TBankValues) {
  return values.method === 'iban'
    ? { method: 'iban', holder_name: values.holder_name, iban: values.iban }
    : {
        method: 'us_bank',
        holder_name: values.holder_name,
        routing_number: values.routing_number,
        account_number: values.account_number,
      };
}

function BankAccountForm({ hasAccount }: { hasAccount: boolean }) {
  const { t } = useTranslation('payouts');
  const handleError = useErrorHandler();
  const queryClient = useQueryClient();
  const form = useBodyForm<TBankValues>({
    defaultValues: { method: 'iban', holder_name: '', iban: '', routing_number: '', account_number: '' },
    schema: ZPayoutAccountUpdate,
    toBody,
    fieldOf,
  });
  const send = useBodySubmit(form, {
    call: 'PUT /api/account/payout-account',
    fieldOf,
    onError: handleError,
    successMessage: t('account.saved'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutsQuery.queryKey }),
  });
  const method = form.watch('method');
  const errors = form.formState.errors as Record<string, TFieldError | undefined>;
  const field = (name: (typeof FIELDS)[number], props: React.ComponentProps<typeof Input> = {}) => {
    const label = t(`account.field.${name}`);
    const error = errorText(t, errors[name], label);
    return (
      <div className="grid gap-1">
        <label htmlFor={`payout-${name}`} className="text-sm font-medium">
          {label}
        </label>
        <Input
          id={`payout-${name}`}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `payout-${name}-error` : undefined}
          {...props}
          {...form.register(name)}
        />
        {error && (
          <p id={`payout-${name}-error`} className="text-sm text-destructive">
            {error}
          </p>
        )}
      </div>
    );
  };
  const formError = errorText(t, errors[FORM_ERROR]);
  return (
    <form
      noValidate
      className="grid max-w-xl gap-3"
      onSubmit={(event) => void form.handleSubmit((values) => send(toBody(values)))(event)}
      aria-busy={form.formState.isSubmitting || undefined}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">
          {t(hasAccount ? 'account.replace' : 'account.add')}
        </legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {(['iban', 'us_bank'] as const).map((value) => (
            <label key={value} className="inline-flex items-center gap-2">
              <input
                type="radio"
                value={value}
                className="size-4 accent-primary"
                {...form.register('method')}
              />
              {t(`account.method.${value}`)}
            </label>
          ))}
        </div>
      </fieldset>
      {field('holder_name', { autoComplete: 'name' })}
      {method === 'iban' ? (
        field('iban', { placeholder: 'DE89 3704 0044 0532 0130 00', spellCheck: false })
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          {field('routing_number', { inputMode: 'numeric', placeholder: '011000015' })}
          {field('account_number', { inputMode: 'numeric' })}
        </div>
      )}
      <p className="text-xs text-muted-foreground">{t('account.help')}</p>
      {formError && <p className="text-sm text-destructive">{formError}</p>}
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
          {t('account.save')}
        </Button>
      </div>
    </form>
  );
}
