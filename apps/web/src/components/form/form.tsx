import { useEffect, useId, useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { TWriteCall } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { cn } from '@/lib/utils';
import { errorText } from './error-text';
import { FormField } from './field';
import { isRequired } from './schema-validation';
import {
  CHOICE_TYPES,
  activeFields,
  initialValue,
  type TFormField,
  type TFormProps,
  type TFormValues,
} from './types';
import { useSchemaForm, type TFieldError } from './use-form';
import { useFormSubmit } from './use-submit';

/**
 * What the field sends when left empty (its type's empty value, after its `toValue`): the value its
 * required mark is judged on, so a prefilled field keeps its mark and an optional one whose empty
 * input means "none" (null) gets none.
 */
function emptySent(field: TFormField): unknown {
  const empty = initialValue({ ...field, value: undefined, defaultValue: undefined });
  return field.toValue ? field.toValue(empty) : empty;
}

/**
 * The spec's generic form: renders a field map, validates (on blur, then on change after the first
 * submit) through the one engine (react-hook-form with the request schema, see use-form), submits
 * JSON or multipart as the named call, handles the payment follow-up, shows the server's message,
 * attaches `inputError` messages to their field, and otherwise defers to the shared error handler.
 * Re-mount it (change its `key`) to reset to new initial values.
 */
export function Form<K extends TWriteCall>({
  fields,
  schema,
  call,
  params,
  buttonText,
  onSuccess,
  redirect,
  autoSubmit,
  cancel,
  autoFocus,
  className,
}: TFormProps<K>) {
  const { t } = useTranslation('form');
  const handleError = useErrorHandler();
  const formId = useId();
  const form = useSchemaForm(fields, schema);
  const send = useFormSubmit(form, { fields, call, params, onSuccess, onError: handleError, redirect });
  const submitting = form.formState.isSubmitting;
  const entries = activeFields(fields);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!autoFocus) return;
    const first = formRef.current?.querySelector<HTMLElement>(
      'input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled]), button[role=combobox], [role=switch], [role=checkbox], [role=radio], [contenteditable=true]',
    );
    first?.focus();
    // autoFocus does not change for a mounted form, so this runs once: re-focusing on a later
    // render would pull focus from where the user put it.
  }, [autoFocus]);

  const submit = form.handleSubmit((values: TFormValues) => send(values));

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => {
        if (submitting) event.preventDefault();
        else void submit(event);
      }}
      aria-busy={submitting || undefined}
      className={cn(
        'space-y-4 transition-opacity',
        submitting && 'pointer-events-none opacity-50',
        className,
      )}
    >
      {entries.map(([name, field]) => (
        <Controller
          key={name}
          name={name}
          control={form.control}
          render={({ field: control, fieldState }) => (
            <FormField
              id={`${formId}-${name}`}
              name={name}
              field={field}
              required={typeof schema === 'function' ? false : isRequired(schema, name, emptySent(field))}
              value={control.value}
              error={errorText(t, fieldState.error as TFieldError | undefined, field.label)}
              onChange={(value) => {
                control.onChange(value);
                // A choice is complete when made: it validates at once instead of waiting for blur.
                if (CHOICE_TYPES.has(field.type) && !form.formState.isSubmitted) void form.trigger(name);
                if (autoSubmit && !form.formState.isSubmitting) void submit();
              }}
              onBlur={control.onBlur}
            />
          )}
        />
      ))}
      {(!autoSubmit || cancel) && (
        <div className="flex flex-wrap gap-2">
          {!autoSubmit && (
            <Button type="submit" loading={submitting}>
              {buttonText ?? t('form.submit')}
            </Button>
          )}
          {cancel && (
            <Button type="button" variant="outline" onClick={cancel} disabled={submitting}>
              {t('form.cancel')}
            </Button>
          )}
        </div>
      )}
    </form>
  );
}
