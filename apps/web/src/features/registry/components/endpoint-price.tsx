import type { TBodyOf } from '@air/shared/api';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { amountToMicros, microsToAmount, MICROS_PER_UNIT, PRICE_MAX_MICROS } from '@air/shared/schemas/price';
import { errorText } from '@/components/form/error-text';
import type { TFormValues } from '@/components/form/types';
import { FORM_ERROR } from '@/components/form/use-body-form';
import type { TFieldError } from '@/components/form/use-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { call } from '@/lib/api';
import type { TAiEndpoint } from '../endpoint-types';
import { useEndpointConfigForm } from './use-endpoint-config-form';

const FIELDS = ['per_call', 'per_1m_input_tokens', 'per_1m_output_tokens'] as const;
type TField = (typeof FIELDS)[number];

/** Micros as the amount typed (`2000` → `0.002`); empty for 0. */
const toText = (micros: number | undefined) => (micros ? microsToAmount(micros) : '');

type TPriceValues = Record<TField, string>;

/**
 * The PATCH body of a price: each amount in minor units (an amount that does not read as one is
 * sent as typed, so the schema refuses it); all parts 0 is free (null).
 */
function priceBody(values: TPriceValues): TFormValues {
  const minor = Object.fromEntries(
    FIELDS.map((field) => [field, amountToMicros(values[field]) ?? values[field]]),
  ) as Record<TField, number | string>;
  const price = FIELDS.every((field) => minor[field] === 0) ? null : minor;
  return { config: { price } };
}

/** `config.price.per_call` → `per_call`; any other path is the form's own message. */
function priceFieldOf(path: string): string | undefined {
  const field = /^config\.price\.(\w+)/.exec(path)?.[1];
  return FIELDS.find((name) => name === field);
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
  const plans = useQuery({
    queryKey: ['account-plans'],
    queryFn: async () => (await call('GET /api/account/plans')).data,
  });
  const paid = plans.data?.plans.find((plan) => plan.price > 0) ?? plans.data?.plans[0];
  const currency = paid?.currency.code.toUpperCase() ?? 'USD';
  const price = endpoint.config.price;
  const { form, onSubmit, saving } = useEndpointConfigForm<TPriceValues>({
    endpoint,
    defaultValues: {
      per_call: toText(price?.per_call),
      per_1m_input_tokens: toText(price?.per_1m_input_tokens),
      per_1m_output_tokens: toText(price?.per_1m_output_tokens),
    },
    toBody: priceBody,
    fieldOf: priceFieldOf,
    onSuccess: (_res, sent) => {
      const next = (sent as TBodyOf<'PATCH /api/aiendpoint/:id'>).config?.price ?? null;
      onSaved({ config: { ...endpoint.config, price: next } });
    },
  });
  const errors = form.formState.errors as Partial<Record<TField | typeof FORM_ERROR, TFieldError>>;
  // The schema decides what is refused; an amount field says it in its own words (the range).
  const errorOf = (field: TField | typeof FORM_ERROR) => {
    const error = errors[field];
    if (!error) return undefined;
    if (error.type === 'server' || field === FORM_ERROR) return errorText(t, error, t('price.title'));
    return t('price.invalid', { max: (PRICE_MAX_MICROS / MICROS_PER_UNIT).toLocaleString() });
  };

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
                  placeholder="0.000000"
                  aria-invalid={errors[field] ? true : undefined}
                  aria-describedby={errors[field] ? `price-${field}-error` : undefined}
                  {...form.register(field)}
                />
                {errors[field] && (
                  <p id={`price-${field}-error`} className="text-xs text-destructive">
                    {errorOf(field)}
                  </p>
                )}
              </div>
            ))}
          </div>
          <p className="text-xs text-muted-foreground">{t('price.help')}</p>
          {errors[FORM_ERROR] && (
            <p role="alert" className="text-sm text-destructive">
              {errorOf(FORM_ERROR)}
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
