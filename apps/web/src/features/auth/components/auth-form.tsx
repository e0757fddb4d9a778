import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { errorText } from '@/components/form/error-text';
import { activeFields, type TFormField, type TFormValues } from '@/components/form/types';
import type { TFormSchema } from '@/components/form/types';
import { useFormState } from '@/components/form/use-form';
import type { TAnswerOf } from '@air/shared/api';
import { ApiError, answerMessage, submitCall, type TWriteCall } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useAuthErrorHandler } from './auth-error';

/** Props a custom control receives (the OTP slots use this). */
export interface TAuthControlProps {
  id: string;
  name: string;
  value: string;
  invalid: boolean;
  describedBy?: string;
  onChange: (value: string) => void;
  onBlur: () => void;
}

export interface TAuthFormProps<K extends TWriteCall> {
  fields: Record<string, TFormField>;
  /** A loader of the request's shared schema (zod loads after the sign-in route, see TFormSchema). */
  schema: TFormSchema;
  /** The call of the shared table the form posts (`"POST /api/auth"`). */
  call: K;
  buttonText: string;
  onSuccess: (response: TAnswerOf<K>, values: TFormValues) => void;
  /** Replace the plain input of a field with another control. */
  controls?: Record<string, (props: TAuthControlProps) => ReactNode>;
  className?: string;
}

const INPUT_TYPE: Record<string, string> = { text: 'text', email: 'email', password: 'password' };

/** Password managers offer to generate a password only for a new one (`autoComplete: 'new-password'`). */
function autoComplete(field: TFormField): string {
  if (field.autoComplete) return field.autoComplete;
  if (field.type === 'email') return 'email';
  if (field.type === 'password') return 'current-password';
  return 'off';
}

/**
 * The generic form's behaviour (spec sections 4 and 8: validation on blur then on change after the
 * first submit, dimmed while sending, server messages shown, inputError attached to its field) for
 * the few plain fields of the sign-in family. It shares the generic form's state hook and
 * messages but not its control set, whose date picker, selects and card hooks would push the
 * sign-in route past its JavaScript budget.
 */
export function AuthForm<K extends TWriteCall>({
  fields,
  schema,
  call,
  buttonText,
  onSuccess,
  controls,
  className,
}: TAuthFormProps<K>) {
  const { t } = useTranslation('form');
  const formId = useId();
  const handleError = useAuthErrorHandler();
  const state = useFormState(fields, schema);
  const [submitting, setSubmitting] = useState(false);

  async function submit() {
    if (!(await state.validateAll())) return;
    const values = state.valuesRef.current;
    setSubmitting(true);
    try {
      const response = await submitCall(call, values);
      const message = answerMessage(response);
      if (message) toast({ variant: 'success', title: message });
      onSuccess(response, values);
    } catch (error) {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      // A message about a hidden field (the reset link's email) has nowhere to show: notify instead.
      const field = body?.inputError ? fields[body.inputError] : undefined;
      if (body?.inputError && body.message && field && field.type !== 'hidden') {
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
    if (!submitting) void submit();
  }

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-busy={submitting || undefined}
      className={cn(
        'grid gap-4 transition-opacity',
        submitting && 'pointer-events-none opacity-50',
        className,
      )}
    >
      {activeFields(fields).map(([name, field]) => {
        const id = `${formId}-${name}`;
        const value = String(state.values[name] ?? '');
        if (field.type === 'hidden') return <input key={name} type="hidden" name={name} value={value} />;
        const error = errorText(t, state.errors[name], field.label);
        const errorId = error ? `${id}-error` : undefined;
        const descriptionId = field.description ? `${id}-description` : undefined;
        const describedBy = [descriptionId, errorId].filter(Boolean).join(' ') || undefined;
        const control = {
          id,
          name,
          value,
          invalid: Boolean(error),
          describedBy,
          onChange: (next: string) => void state.setValue(name, next),
          onBlur: () => state.blur(name),
        };
        const custom = controls?.[name];
        return (
          <div key={name} className="grid gap-2" data-field={name}>
            {field.label && (
              // A native label: the Radix one adds nothing here and costs the sign-in route bytes.
              <label htmlFor={id} id={`${id}-label`} className="text-sm leading-none font-medium">
                {field.label}
              </label>
            )}
            {custom ? (
              custom(control)
            ) : (
              <Input
                id={id}
                name={name}
                type={INPUT_TYPE[field.type ?? 'text'] ?? 'text'}
                inputMode={field.type === 'email' ? 'email' : undefined}
                autoComplete={autoComplete(field)}
                placeholder={field.placeholder}
                disabled={field.disabled}
                value={value}
                aria-invalid={control.invalid || undefined}
                aria-describedby={describedBy}
                onChange={(event) => control.onChange(event.target.value)}
                onBlur={control.onBlur}
              />
            )}
            {field.description && (
              <p id={descriptionId} className="text-sm text-muted-foreground">
                {field.description}
              </p>
            )}
            {error && (
              <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <Button type="submit" className="w-full" loading={submitting}>
        {buttonText}
      </Button>
    </form>
  );
}
