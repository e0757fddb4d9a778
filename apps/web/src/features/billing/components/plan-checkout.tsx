import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle } from 'lucide-react';
import type { TPlanOption } from '@air/shared/schemas/account';
import { ZPlanChange, type TPlanChange, type TPlanSaved } from '@air/shared/schemas/billing';
import { errorText } from '@/components/form/error-text';
import { FormField } from '@/components/form/field';
import { fieldErrors } from '@/components/form/schema-validation';
import { submitValues } from '@/components/form/submit';
import type { TFormFields } from '@/components/form/types';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { toast } from '@/components/ui/use-toast';
import { formatNumber } from '@/lib/format-number';
import { ApiError, answerMessage } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { cn } from '@/lib/utils';
import { formatDate, formatMoney } from '../lib/money';
import { isPaid } from '../lib/plans';

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
}

/**
 * Choose a plan and pay for it: the plans as radio cards, the card widget when a paid plan needs a
 * card, and the generic form's request cycle (card token, `requires_payment_action`, confirm,
 * repeat with the payment result). Server refusals land on the card (`inputError: 'token'`) or
 * the plan (`inputError: 'plan'`); anything else goes to the shared error handler.
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
}: TPlanCheckoutProps) {
  const { t, i18n } = useTranslation(['billing', 'form']);
  const handleError = useErrorHandler();
  const id = useId();
  const firstChoice = plans.find((p) => p.id === initial) ?? plans.find((p) => p.id === active) ?? plans[0];
  const [selected, setSelected] = useState<string | undefined>(firstChoice?.id);
  const [card, setCard] = useState<unknown>(null);
  const [errors, setErrors] = useState<{ plan?: string; token?: string }>({});
  const [submitting, setSubmitting] = useState(false);

  const plan = plans.find((p) => p.id === selected);
  const needsCard = isPaid(plan) && !hasCard;
  const current = plans.find((p) => p.id === active);
  const endsAtPeriodEnd = Boolean(plan && !isPaid(plan) && isPaid(current) && periodEnd);
  const cardFields: TFormFields = {
    token: { type: needsCard ? 'card' : null, label: t('billing:card.label') },
  };

  /**
   * The request's schema (ZPlanChange) decides, as on the server; the one rule it cannot hold is
   * the server's too: a paid plan without a card on file needs a card (`validation.card_required`).
   */
  function check(): { plan?: string; token?: string } {
    const found = fieldErrors(
      ZPlanChange,
      { plan: { type: 'radio' }, ...cardFields },
      { plan: selected ?? '', token: card },
    );
    if (needsCard && card == null)
      found.token ??= { field: 'token', key: 'validation.card_required', params: {} };
    return {
      plan: errorText(t, found.plan, t('billing:plans.label')),
      token: errorText(t, found.token, t('billing:card.label')),
    };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    const invalid = check();
    if (!plan || invalid.plan || invalid.token) return setErrors(invalid);
    setErrors({});
    setSubmitting(true);
    try {
      // The card widget's value becomes the `token` string of TPlanChange when the form sends it.
      const values: Omit<TPlanChange, 'token'> & { token?: unknown } = { plan: plan.id };
      if (needsCard) values.token = card;
      const { response } = await submitValues(cardFields, call, undefined, values);
      const message = answerMessage(response);
      if (message) toast({ variant: 'success', title: message });
      // submitValues confirms a payment the answer asks for and repeats the change: this is saved.
      await onDone(response as TPlanSaved, plan.id);
    } catch (error) {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      const field = body?.inputError === 'plan' ? 'plan' : body?.inputError ? 'token' : null;
      if (body?.message && field && (field === 'plan' || needsCard)) setErrors({ [field]: body.message });
      else handleError(error);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-busy={submitting || undefined}
      className={cn('space-y-4 transition-opacity', submitting && 'pointer-events-none opacity-50')}
    >
      <RadioGroup
        aria-label={t('billing:plans.label')}
        aria-invalid={Boolean(errors.plan) || undefined}
        value={selected ?? ''}
        onValueChange={(value) => {
          setSelected(value);
          setErrors({});
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
      {errors.plan && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errors.plan}
        </p>
      )}
      {endsAtPeriodEnd && (
        <div
          role="alert"
          className="flex gap-2 rounded-md border border-orange-300 bg-orange-50 p-3 text-sm text-orange-900 dark:border-orange-800 dark:bg-orange-950/40 dark:text-orange-200"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{t('billing:plans.freeWarning', { date: formatDate(periodEnd!, i18n.language) })}</span>
        </div>
      )}
      {needsCard && (
        <FormField
          id={`${id}-token`}
          name="token"
          field={{ type: 'card', label: t('billing:card.label') }}
          required
          value={card}
          error={errors.token}
          onChange={(value) => {
            setCard(value);
            if (errors.token) setErrors({});
          }}
          onBlur={() => undefined}
        />
      )}
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
            ? t('plans.free')
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
