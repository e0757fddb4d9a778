import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ZUsageInsightQuery } from '@air/shared/schemas/usage-insight';
import { USAGE_FIRST_DAY, USAGE_LAST_DAY } from '@air/shared/usage-limits';
import { errorText } from '@/components/form/error-text';
import { useBodyForm } from '@/components/form/use-body-form';
import type { TFieldError } from '@/components/form/use-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

export interface TCustomRange {
  from: string;
  to: string;
}

const fieldOf = (path: string) => (path === 'from' || path === 'to' ? path : undefined);

/**
 * The usage page's custom period: first and last day, on the one form engine with the query
 * schema the server reads the period with (ZUsageInsightQuery: real days, 366 at most, both included).
 * `onChange` keeps the page's copy of what is typed (picking Custom again applies it).
 */
export function CustomPeriodForm({
  initial,
  onChange,
  onApply,
}: {
  initial: TCustomRange;
  onChange: (range: TCustomRange) => void;
  onApply: (range: TCustomRange) => void;
}) {
  const { t } = useTranslation('usage');
  const form = useBodyForm<TCustomRange>({
    defaultValues: initial,
    schema: ZUsageInsightQuery,
    toBody: ({ from, to }) => ({ period: 'custom', from: from || undefined, to: to || undefined }),
    fieldOf,
  });
  React.useEffect(() => {
    const watching = form.watch((values) => onChange({ from: values.from ?? '', to: values.to ?? '' }));
    return () => watching.unsubscribe();
  }, [form, onChange]);
  const { from, to } = form.watch();
  const errorOf = (name: keyof TCustomRange) =>
    errorText(t, form.formState.errors[name] as TFieldError | undefined, t(`period.${name}`));

  const day = (name: keyof TCustomRange, min: string, max: string) => (
    <div className="grid gap-1">
      <label className="grid gap-1 text-xs font-medium">
        {t(`period.${name}`)}
        <Input
          type="date"
          required
          min={min}
          max={max}
          aria-invalid={errorOf(name) ? true : undefined}
          aria-describedby={errorOf(name) ? `usage-${name}-error` : undefined}
          {...form.register(name)}
        />
      </label>
      {errorOf(name) && (
        <p id={`usage-${name}-error`} className="text-xs text-destructive">
          {errorOf(name)}
        </p>
      )}
    </div>
  );
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => void form.handleSubmit((range) => onApply(range))(event)}
    >
      {day('from', USAGE_FIRST_DAY, to || USAGE_LAST_DAY)}
      {day('to', from || USAGE_FIRST_DAY, USAGE_LAST_DAY)}
      <Button type="submit" variant="outline">
        {t('period.apply')}
      </Button>
    </form>
  );
}
