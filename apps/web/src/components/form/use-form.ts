import { useCallback, useEffect, useRef, useState } from 'react';
import type { TIssueMessage } from '@air/shared/validation';
import { fieldErrors } from './schema-validation';
import {
  activeFields,
  initialValues,
  type TFormFields,
  type TFormSchema,
  type TFormValues,
  type TSchemaLike,
} from './types';

/** A field's error: a message key from the schema, or a server message attached to the field. */
export type TFormErrors = Record<string, TIssueMessage | { message: string } | undefined>;

/** Resolves a form's schema once (a loader is called when the form mounts). */
function useSchema(source: TFormSchema): () => Promise<TSchemaLike> {
  const loading = useRef<Promise<TSchemaLike> | null>(null);
  const get = useCallback(() => {
    loading.current ??= typeof source === 'function' ? source() : Promise.resolve(source);
    return loading.current;
  }, [source]);
  useEffect(() => void get(), [get]);
  return get;
}

/**
 * Form state and validation timing (spec section 4): a field validates on blur; after the first
 * submit, every change re-validates. The rules are the request schema's (see schema-validation).
 * Values live in a ref too so handlers that run right after a change (blur, auto-submit) see the
 * new value without waiting for a render.
 */
export function useFormState(fields: TFormFields, schema: TFormSchema) {
  const [values, setValues] = useState<TFormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<TFormErrors>({});
  const valuesRef = useRef(values);
  const submittedRef = useRef(false);
  const loadSchema = useSchema(schema);

  const validateOne = useCallback(
    async (name: string) => {
      if (!fields[name]) return;
      const found = fieldErrors(await loadSchema(), fields, valuesRef.current);
      setErrors((prev) => ({ ...prev, [name]: found[name] }));
    },
    [fields, loadSchema],
  );

  const setValue = useCallback(
    (name: string, value: unknown, { validate = false }: { validate?: boolean } = {}) => {
      valuesRef.current = { ...valuesRef.current, [name]: value };
      setValues(valuesRef.current);
      if (validate || submittedRef.current) void validateOne(name);
      return valuesRef.current;
    },
    [validateOne],
  );

  const blur = useCallback((name: string) => void validateOne(name), [validateOne]);

  /**
   * Validates every field; marks the form as submitted so later changes re-validate. A hidden
   * field's error does not stop the submit: it is not the user's to fix, so the server's answer
   * (which names the same rule) goes to the error handler as a notification.
   */
  const validateAll = useCallback(async (): Promise<boolean> => {
    submittedRef.current = true;
    const found = fieldErrors(await loadSchema(), fields, valuesRef.current);
    const next: TFormErrors = {};
    let valid = true;
    for (const [name, field] of activeFields(fields)) {
      if (field.type === 'hidden' || !found[name]) continue;
      next[name] = found[name];
      valid = false;
    }
    setErrors(next);
    return valid;
  }, [fields, loadSchema]);

  const setFieldError = useCallback((name: string, message: string) => {
    setErrors((prev) => ({ ...prev, [name]: { message } }));
  }, []);

  return { values, valuesRef, errors, setValue, blur, validateAll, setFieldError };
}
