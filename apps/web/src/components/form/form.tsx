import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { ApiError, answerMessage, type TWriteCall } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { cn } from '@/lib/utils';
import { errorText } from './error-text';
import { FormField } from './field';
import { submitValues } from './submit';
import { isRequired } from './schema-validation';
import {
  CHOICE_TYPES,
  activeFields,
  bodyValues,
  initialValue,
  type TFormProps,
  type TFormValues,
} from './types';
import { useFormState } from './use-form';

/**
 * The spec's generic form: renders a field map, validates (on blur, then on change after the first
 * submit), submits JSON or multipart through the API client, handles the payment follow-up, shows
 * the server's message, attaches `inputError` messages to their field, and otherwise defers to the
 * shared error handler. Re-mount it (change its `key`) to reset to new initial values.
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
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const formId = useId();
  const state = useFormState(fields, schema);
  const [submitting, setSubmitting] = useState(false);
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

  async function submit(values: TFormValues) {
    if (!(await state.validateAll())) return;
    setSubmitting(true);
    try {
      const { response, sent } = await submitValues(fields, call, params, bodyValues(fields, values));
      const message = answerMessage(response);
      if (message) toast({ variant: 'success', title: message });
      onSuccess?.(response, sent);
      if (redirect) void navigate(redirect);
    } catch (error) {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      // A field the form does not show (type null or hidden) cannot carry the message: a toast does.
      // A nested field (`routes.0`) belongs to its form field (`routes`).
      const name = body?.inputError?.split('.')[0];
      const field = name ? fields[name] : undefined;
      if (body?.message && field && field.type !== null && field.type !== 'hidden') {
        state.setFieldError(name!, body.message);
      } else {
        handleError(error);
      }
    } finally {
      setSubmitting(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!submitting) void submit(state.valuesRef.current);
  }

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={onSubmit}
      aria-busy={submitting || undefined}
      className={cn(
        'space-y-4 transition-opacity',
        submitting && 'pointer-events-none opacity-50',
        className,
      )}
    >
      {entries.map(([name, field]) => (
        <FormField
          key={name}
          id={`${formId}-${name}`}
          name={name}
          field={field}
          required={typeof schema === 'function' ? false : isRequired(schema, name, initialValue(field))}
          value={state.values[name]}
          error={errorText(t, state.errors[name], field.label)}
          onChange={(value) => {
            const next = state.setValue(name, value, { validate: CHOICE_TYPES.has(field.type) });
            if (autoSubmit && !submitting) void submit(next);
          }}
          onBlur={() => state.blur(name)}
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
