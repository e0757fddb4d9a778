import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { cn } from '@/lib/utils';
import { errorText } from './error-text';
import { FormField } from './field';
import { submitValues } from './submit';
import { CHOICE_TYPES, activeFields, type TFormProps, type TFormValues } from './types';
import { useFormState } from './use-form';

/**
 * The spec's generic form: renders a field map, validates (on blur, then on change after the first
 * submit), submits JSON or multipart through the API client, handles the payment follow-up, shows
 * the server's message, attaches `inputError` messages to their field, and otherwise defers to the
 * shared error handler. Re-mount it (change its `key`) to reset to new initial values.
 */
export function Form({
  fields,
  url,
  method,
  buttonText,
  onSuccess,
  redirect,
  autoSubmit,
  cancel,
  className,
}: TFormProps) {
  const { t } = useTranslation('form');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const formId = useId();
  const state = useFormState(fields);
  const [submitting, setSubmitting] = useState(false);
  const entries = activeFields(fields);

  async function submit(values: TFormValues) {
    if (!state.validateAll()) return;
    setSubmitting(true);
    try {
      const { response, sent } = await submitValues(fields, method, url, values);
      if (typeof response.message === 'string' && response.message) {
        toast({ variant: 'success', title: response.message });
      }
      onSuccess?.(response, sent);
      if (redirect) void navigate(redirect);
    } catch (error) {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      if (body?.inputError && body.message && fields[body.inputError]) {
        state.setFieldError(body.inputError, body.message);
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
          value={state.values[name]}
          error={errorText(t, state.errors[name])}
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
