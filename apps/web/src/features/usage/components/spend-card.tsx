import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { ZSpendLimitUpdate } from '@air/shared/schemas/spend-limit';
import type { TUsage } from '@air/shared/schemas/usage';
import { errorText } from '@/components/form/error-text';
import type { TFormFields } from '@/components/form/types';
import { useSchemaForm, type TFieldError } from '@/components/form/use-form';
import { useFormSubmit } from '@/components/form/use-submit';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { formatMinor as money } from '@/features/marketplace/catalog-format';
import { monthUsageQuery } from '../usage-api';
import { PercentBar } from './percent-bar';

/**
 * A typed amount (`25`, `25.5`, `25,50`) as minor units; empty is no limit (null). Anything else
 * is passed on as typed, so the schema refuses it with its message.
 */
export function spendLimitValue(value: unknown): unknown {
  const text = String(value ?? '')
    .trim()
    .replace(',', '.');
  if (text === '') return null;
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return text;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * The month's marketplace spend (`GET /api/account/usage`'s `spend` row) against the account's
 * spend limit, and, for an owner or admin, the form that sets or removes the limit
 * (`PATCH /api/account/spend-limit`).
 */
export function SpendCard({ locale, canEdit }: { locale: string; canEdit: boolean }) {
  const { t } = useTranslation('usage');
  const usage = useQuery(monthUsageQuery);
  const spend = usage.data?.find((row) => row.label === 'spend');
  if (!spend) return null;
  return (
    <Card data-testid="spend-card">
      <CardHeader>
        <CardTitle className="text-base">{t('spend.title', { period: spend.period })}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <SpendSoFar spend={spend} locale={locale} />
        {canEdit ? (
          // Re-mounted when the saved limit changes, so the field starts from it.
          <SpendLimitForm key={String(spend.quota)} spend={spend} />
        ) : (
          <p className="text-xs text-muted-foreground">{t('spend.ownerOnly')}</p>
        )}
      </CardContent>
    </Card>
  );
}

function SpendSoFar({ spend, locale }: { spend: TUsage; locale: string }) {
  const { t } = useTranslation('usage');
  const currency = spend.currency ?? 'usd';
  const spent = money(spend.total, currency, locale);
  if (spend.quota === null)
    return (
      <>
        <p className="text-sm">{t('spend.spent', { spent })}</p>
        <p className="text-sm text-muted-foreground">{t('spend.noLimit')}</p>
      </>
    );
  const percent = spend.quota === 0 ? 100 : Math.floor((spend.total * 100) / spend.quota);
  return (
    <>
      <p className="text-sm">
        {t('spend.ofLimit', { spent, limit: money(spend.quota, currency, locale), percent })}
      </p>
      <PercentBar percent={percent} label={t('spend.bar')} />
      {spend.total >= spend.quota && <p className="text-sm text-muted-foreground">{t('spend.reached')}</p>}
    </>
  );
}

function SpendLimitForm({ spend }: { spend: TUsage }) {
  const { t } = useTranslation('usage');
  const handleError = useErrorHandler();
  const queryClient = useQueryClient();
  const currency = (spend.currency ?? 'usd').toUpperCase();
  const [fields] = React.useState<TFormFields>(() => ({
    marketplace_spend_limit: {
      type: 'text',
      value: spend.quota === null ? '' : (spend.quota / 100).toFixed(2),
      toValue: spendLimitValue,
    },
  }));
  const form = useSchemaForm(fields, ZSpendLimitUpdate);
  const [removing, setRemoving] = React.useState(false);
  const saved = async (limit: number | null) => {
    toast({ variant: 'success', title: t(limit === null ? 'spend.removed' : 'spend.saved') });
    await queryClient.invalidateQueries({ queryKey: monthUsageQuery.queryKey });
  };
  const save = useFormSubmit(form, {
    fields,
    call: 'PATCH /api/account/spend-limit',
    onError: handleError,
    onSuccess: (res) => saved(res.data.marketplace_spend_limit),
  });
  async function remove() {
    setRemoving(true);
    try {
      await call('PATCH /api/account/spend-limit', { body: { marketplace_spend_limit: null } });
      await saved(null);
    } catch (error) {
      handleError(error);
    } finally {
      setRemoving(false);
    }
  }
  const busy = form.formState.isSubmitting || removing;
  const label = t('spend.label', { currency });
  const error = errorText(
    t,
    (form.formState.errors as Record<string, TFieldError | undefined>).marketplace_spend_limit,
    label,
  );
  return (
    <form
      noValidate
      onSubmit={(e) => void form.handleSubmit(save)(e)}
      className="grid gap-2"
      aria-busy={busy || undefined}
    >
      <Label htmlFor="spend-limit">{label}</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id="spend-limit"
          inputMode="decimal"
          placeholder="0.00"
          className="w-40"
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'spend-limit-error spend-limit-help' : 'spend-limit-help'}
          {...form.register('marketplace_spend_limit')}
        />
        <Button type="submit" disabled={busy}>
          {form.formState.isSubmitting && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
          {t('spend.save')}
        </Button>
        {spend.quota !== null && (
          <Button type="button" variant="outline" disabled={busy} onClick={() => void remove()}>
            {t('spend.remove')}
          </Button>
        )}
      </div>
      {error && (
        <p id="spend-limit-error" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <p id="spend-limit-help" className="text-xs text-muted-foreground">
        {t('spend.help')}
      </p>
    </form>
  );
}
