import { useEffect, useId, useReducer, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorText } from '@/components/form/error-text';
import { FieldNotes } from '@/components/form/field-notes';
import type * as TEngineModule from '@/components/form/engine';
import type { TEngine, TFieldError } from '@/components/form/engine';
import { activeFields, initialValues, type TFormField, type TFormValues } from '@/components/form/types';
import type { TFormSchema } from '@/components/form/types';
import { useSchema } from '@/components/form/schema-loader';
import type { TAnswerOf } from '@air/shared/api';
import type { TWriteCall } from '@/lib/api';
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

// The engine (react-hook-form, the rules, the request cycle) loads when the form mounts, beside
// the schema: the page and its inputs show at once, and no one submits within those milliseconds
// (a submit that does waits for it). This keeps the sign-in route within its 150 KB budget.
const loadEngine = () => import('@/components/form/engine');

/**
 * The sign-in family's view of the one form engine (the generic form's react-hook-form options,
 * resolver and request cycle: validation on blur then on change after the first submit, dimmed
 * while sending, server messages shown, inputError attached to its field) with plain inputs
 * only, since the generic form's control set (date picker, selects, card hooks) would push the
 * sign-in route past its JavaScript budget. The inputs are React state mirrored into the engine's
 * form control. A 401 here is the server refusing the credentials, shown as a notification (see
 * auth-error).
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
  const loadSchema = useSchema(schema);
  const [values, setValues] = useState<TFormValues>(() => initialValues(fields));
  // What the engine starts with when it arrives: the values typed so far.
  const valuesRef = useRef(values);
  useEffect(() => {
    valuesRef.current = values;
  }, [values]);
  const [engine, setEngine] = useState<TEngine | null>(null);
  const engineRef = useRef<Promise<[TEngine, typeof TEngineModule]> | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  function started() {
    engineRef.current ??= loadEngine().then((module) => {
      const created = module.createEngine(fields, valuesRef.current, loadSchema);
      return [created, module];
    });
    return engineRef.current;
  }
  useEffect(() => {
    let live = true;
    let unsubscribe = () => {};
    void started().then(([created]) => {
      if (!live) return;
      unsubscribe = created.subscribe({ formState: { errors: true }, callback: rerender });
      setEngine(created);
    });
    return () => {
      live = false;
      unsubscribe();
    };
    // The form's fields and schema are fixed while it lives (its key changes with them).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setSubmitted(true);
    const [form, { runSubmit }] = await started();
    // The inputs are the truth: the engine gets every value as it is now, then validates it all.
    for (const [name, value] of Object.entries(values)) form.setValue(name, value);
    await form.handleSubmit(async (sent) => {
      setSubmitting(true);
      try {
        await runSubmit(sent, form.setError, { fields, call, onSuccess, onError: handleError });
      } finally {
        setSubmitting(false);
      }
    })();
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-busy={submitting || undefined}
      className={cn(
        'grid gap-4 transition-opacity',
        submitting && 'pointer-events-none opacity-50',
        className,
      )}
    >
      {activeFields(fields).map(([name, field]) => {
        const id = `${formId}-${name}`;
        const value = String(values[name] ?? '');
        if (field.type === 'hidden') return <input key={name} type="hidden" name={name} value={value} />;
        const fieldError = engine?.getFieldState(name).error as TFieldError | undefined;
        const error = errorText(t, fieldError, field.label);
        const errorId = error ? `${id}-error` : undefined;
        const descriptionId = field.description ? `${id}-description` : undefined;
        const describedBy = [descriptionId, errorId].filter(Boolean).join(' ') || undefined;
        const control = {
          id,
          name,
          value,
          invalid: Boolean(error),
          describedBy,
          onChange: (next: string) => {
            setValues((prev) => ({ ...prev, [name]: next }));
            // After the first submit every change re-validates (the engine's reValidateMode).
            engine?.setValue(name, next, { shouldDirty: true, shouldValidate: submitted });
          },
          onBlur: () => {
            if (!engine) return;
            engine.setValue(name, value);
            void engine.trigger(name);
          },
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
            <FieldNotes
              description={field.description}
              descriptionId={descriptionId}
              error={error}
              errorId={errorId}
            />
          </div>
        );
      })}
      <Button type="submit" className="w-full" loading={submitting}>
        {buttonText}
      </Button>
    </form>
  );
}
