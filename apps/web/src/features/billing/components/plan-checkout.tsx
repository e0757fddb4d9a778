import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AlertTriangle } from 'lucide-react';
import type { TPlanOption } from '@air/shared/schemas/account';
import { ZPlanChange, type TPlanSaved } from '@air/shared/schemas/billing';
import { errorText } from '@/components/form/error-text';
import { FormField } from '@/components/form/field';
import type { TFormFields } from '@/components/form/types';
import { useSchemaForm, type TFieldError } from '@/components/form/use-form';
import { useFormSubmit } from '@/components/form/use-submit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { formatNumber } from '@/lib/format-number';
import { ApiError } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { cn } from '@/lib/utils';
import { formatMoney } from '../lib/money';
import { formatDay } from '@/lib/format-date';
import { isPaid } from '../lib/plans';
import { PlanPreview } from './plan-preview';

export interface TPlanCheckoutProps {
  plans: TPlanOption[];
  /** The account's plan (marked "Current plan"); null before one is chosen. */
  active: string | null;
  /** The plan selected at first (the upgrade page's `?plan=`). */
  initial?: string | null;
  /** A card is on file: a paid plan is charged to it and no card is asked. */
  hasCard: boolean;
  /** When the paid subscription's period ends: picking free warns that it ends then. */
  periodEnd?: string | null;
  /** The plan change's call: the sign-up plan step, the upgrade page or the billing page's. */
  call: 'POST /api/account/plan' | 'PATCH /api/account/plan' | 'POST /api/account/upgrade';
  submitText: string;
  /** The saved change (a payment to confirm was confirmed and the change repeated first). */
  onDone: (response: TPlanSaved, plan: string) => void | Promise<void>;
  /**
   * No "plan saved" toast: at sign-up the plan is the first one chosen, not an update, and the
   * next page follows at once.
   */
  silent?: boolean;
}

/**
 * Choose a plan and pay for it, on the one form engine: the plans as radio cards, the card widget
 * when a paid plan needs a card, and the forms' request cycle (card token,
 * `requires_payment_action`, confirm, repeat with the payment result). Server refusals land on
 * the plan (`inputError: 'plan'`) or the card (any other field while a card is asked); anything
 * else goes to the shared error handler.
 */
export function PlanCheckout({
  plans,
  active,
  initial,
  hasCard,
  periodEnd,
  call,
  submitText,
  onDone,
  silent,
}: TPlanCheckoutProps) {
  const { t, i18n } = useTranslation(['billing', 'form']);
  const handleError = useErrorHandler();
  const id = useId();
  const firstChoice = plans.find((p) => p.id === initial) ?? plans.find((p) => p.id === active) ?? plans[0];
  const [planLabel, cardLabel] = [t('billing:plans.label'), t('billing:card.label')];
  // The engine's fields are fixed for the form's life; the card field joins the request cycle's
  // map below when a paid plan needs one (its one rule is checked at submit).
  const [base] = useState<TFormFields>(() => ({ plan: { type: 'radio', value: firstChoice?.id ?? '' } }));
  const form = useSchemaForm(base, ZPlanChange);
  const selected = form.watch('plan') as string;
  const plan = plans.find((p) => p.id === selected);
  const needsCard = isPaid(plan) && !hasCard;
  const fields: TFormFields = { ...base, token: { type: needsCard ? 'card' : null, label: cardLabel } };
  const current = plans.find((p) => p.id === active);
  const endsAtPeriodEnd = Boolean(plan && !isPaid(plan) && isPaid(current) && periodEnd);
  const send = useFormSubmit(form, {
    fields,
    call,
    silent,
    // The forms' cycle confirms a payment the answer asks for and repeats the change: this is saved.
    onSuccess: (response, values) => onDone(response as TPlanSaved, String(values.plan)),
    onError: (error) => {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      // A card refusal (declined, or its 3-D Secure failed) without a card field on the form (the
      // card on file was charged): the message stays on the form, under the plans.
      if (body?.message && body.inputError === 'token') {
        form.setError(needsCard ? 'token' : 'plan', { type: 'server', message: body.message });
      } else if (body?.message && body.inputError && needsCard) {
        form.setError('token', { type: 'server', message: body.message });
      } else handleError(error);
    },
  });
  const submitting = form.formState.isSubmitting;

  const submit = form.handleSubmit((values) => {
    // The one rule the schema cannot hold is the server's too: a paid plan without a card on file
    // needs a card.
    if (needsCard && values.token == null) {
      form.setError('token', { type: 'schema', message: 'validation.card_required' });
      return;
    }
    return send(needsCard ? values : { plan: values.plan });
  });
  const errors = form.formState.errors as Record<string, TFieldError | undefined>;
  const planError = errorText(t, errors.plan, planLabel);

  return (
    <form
      noValidate
      onSubmit={(event) => {
        if (submitting) event.preventDefault();
        else void submit(event);
      }}
      aria-busy={submitting || undefined}
      className={cn('space-y-4 transition-opacity', submitting && 'pointer-events-none opacity-50')}
    >
      <RadioGroup
        aria-label={planLabel}
        aria-invalid={Boolean(planError) || undefined}
        value={selected ?? ''}
        onValueChange={(value) => {
          form.setValue('plan', value);
          form.clearErrors();
        }}
        className="gap-3"
      >
        {plans.map((option) => (
          <PlanOption
            key={option.id}
            id={`${id}-${option.id}`}
            plan={option}
            current={option.id === active}
            locale={i18n.language}
          />
        ))}
      </RadioGroup>
      {planError && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {planError}
        </p>
      )}
      {endsAtPeriodEnd && (
        <div
          role="alert"
          className="flex gap-2 rounded-md border border-orange-300 bg-orange-50 p-3 text-sm text-orange-900 dark:border-orange-800 dark:bg-orange-950/40 dark:text-orange-200"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{t('billing:plans.freeWarning', { date: formatDay(periodEnd!, i18n.language) })}</span>
        </div>
      )}
      {needsCard && (
        <Controller
          name="token"
          control={form.control}
          defaultValue={null}
          render={({ field, fieldState }) => (
            <FormField
              id={`${id}-token`}
              name="token"
              field={{ type: 'card', label: cardLabel }}
              required
              value={field.value}
              error={errorText(t, fieldState.error as TFieldError | undefined, cardLabel)}
              onChange={(value) => {
                field.onChange(value);
                form.clearErrors('token');
              }}
              onBlur={() => undefined}
            />
          )}
        />
      )}
      {plan && plan.id !== active && <PlanPreview plan={plan.id} />}
      <Button type="submit" className="w-full sm:w-auto" loading={submitting} disabled={!plan}>
        {submitText}
      </Button>
    </form>
  );
}

function PlanOption({
  id,
  plan,
  current,
  locale,
}: {
  id: string;
  plan: TPlanOption;
  current: boolean;
  locale: string;
}) {
  const { t } = useTranslation('billing');
  const interval = t(`plans.interval.${plan.interval}`, { defaultValue: plan.interval });
  const price = formatMoney(plan.price, plan.currency.symbol, locale);
  return (
    <label
      htmlFor={id}
      data-plan={plan.id}
      className="flex cursor-pointer items-start gap-3 rounded-lg border p-4 transition-colors hover:bg-accent has-[[data-state=checked]]:border-primary"
    >
      <RadioGroupItem id={id} value={plan.id} className="mt-1" />
      <span className="grid flex-1 gap-1">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{plan.name}</span>
          {current && <Badge variant="green">{t('plans.current')}</Badge>}
        </span>
        <span className="text-sm">
          {plan.price === 0
            ? t('plans.noCard')
            : t(plan.type === 'tiered' ? 'plans.perSeat' : 'plans.perInterval', { price, interval })}
        </span>
        <span className="text-xs text-muted-foreground">
          {t('plans.quota', { calls: formatNumber(plan.quota_calls_month) })}
          {' · '}
          {t('plans.rateLimit', { rate: formatNumber(plan.rate_limit_per_minute) })}
        </span>
      </span>
    </label>
  );
}
