import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { PRICE_MAX_MINOR, type TPrice } from '@air/shared/schemas/price';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError, call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

const FIELDS = ['per_call', 'per_1m_input_tokens', 'per_1m_output_tokens'] as const;
type TField = (typeof FIELDS)[number];

/** Minor units as the amount typed (`5` → `0.05`); empty for 0. */
const toText = (minor: number | undefined) => (minor ? (minor / 100).toFixed(2) : '');

/** A typed amount (`0.05`, `1`, `1,5`) in minor units, or null when it is not an amount of 2 decimals at most. */
export function toMinor(text: string): number | null {
  const value = text.trim().replace(',', '.');
  if (value === '') return 0;
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * The Settings tab's price (contract 5a): what other accounts pay per call and per million input
 * and output tokens, in the billing currency; all empty is free. Saved as `config.price`.
 */
export function EndpointPrice({
  endpoint,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const plans = useQuery({
    queryKey: ['account-plans'],
    queryFn: async () => (await call('GET /api/account/plans')).data,
  });
  const paid = plans.data?.plans.find((plan) => plan.price > 0) ?? plans.data?.plans[0];
  const currency = paid?.currency.code.toUpperCase() ?? 'USD';
  const price = endpoint.config.price;
  const [values, setValues] = React.useState<Record<TField, string>>(() => ({
    per_call: toText(price?.per_call),
    per_1m_input_tokens: toText(price?.per_1m_input_tokens),
    per_1m_output_tokens: toText(price?.per_1m_output_tokens),
  }));
  const [errors, setErrors] = React.useState<Partial<Record<TField | 'form', string>>>({});
  const [saving, setSaving] = React.useState(false);

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const found: Partial<Record<TField, string>> = {};
    const minor = {} as TPrice;
    for (const field of FIELDS) {
      const value = toMinor(values[field]);
      if (value === null || value > PRICE_MAX_MINOR)
        found[field] = t('price.invalid', { max: (PRICE_MAX_MINOR / 100).toLocaleString() });
      else minor[field] = value;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    const next = FIELDS.every((field) => minor[field] === 0) ? null : minor;
    setSaving(true);
    try {
      await call('PATCH /api/aiendpoint/:id', {
        params: { id: endpoint.id },
        body: { config: { price: next } },
      });
      onSaved({ config: { ...endpoint.config, price: next } });
      toast({ variant: 'success', title: t('detail.saved') });
    } catch (error) {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      if (body?.message && body.inputError) setErrors({ form: body.message });
      else handleError(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('price.title')}</CardTitle>
        <CardDescription>{t('price.description', { currency })}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={(e) => void onSubmit(e)}
          className="space-y-4"
          aria-busy={saving || undefined}
        >
          <div className="grid gap-4 sm:grid-cols-3">
            {FIELDS.map((field) => (
              <div key={field} className="space-y-1">
                <Label htmlFor={`price-${field}`}>{t(`price.${field}`, { currency })}</Label>
                <Input
                  id={`price-${field}`}
                  inputMode="decimal"
                  placeholder="0.00"
                  value={values[field]}
                  aria-invalid={errors[field] ? true : undefined}
                  aria-describedby={errors[field] ? `price-${field}-error` : undefined}
                  onChange={(e) => setValues((old) => ({ ...old, [field]: e.target.value }))}
                />
                {errors[field] && (
                  <p id={`price-${field}-error`} className="text-xs text-destructive">
                    {errors[field]}
                  </p>
                )}
              </div>
            ))}
          </div>
          <p className="text-xs text-muted-foreground">{t('price.help')}</p>
          {errors.form && (
            <p role="alert" className="text-sm text-destructive">
              {errors.form}
            </p>
          )}
          <Button type="submit" disabled={saving}>
            {t('price.save')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
