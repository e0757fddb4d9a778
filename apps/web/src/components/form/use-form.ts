import { useCallback, useRef, useState } from 'react';
import { validateField, type TValidationError } from '@air/shared/validation';
import { activeFields, initialValues, type TFormFields, type TFormValues } from './types';

export type TFormErrors = Record<string, TValidationError | { message: string } | undefined>;

/**
 * Form state and validation timing (spec section 4): a field validates on blur; after the first
 * submit, every change re-validates. Values live in a ref too so handlers that run right after a
 * change (blur, auto-submit) see the new value without waiting for a render.
 */
export function useFormState(fields: TFormFields) {
  const [values, setValues] = useState<TFormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<TFormErrors>({});
  const valuesRef = useRef(values);
  const submittedRef = useRef(false);

  const validateOne = useCallback(
    (name: string, current: TFormValues = valuesRef.current) => {
      const field = fields[name];
      if (!field) return null;
      const error = validateField(field, current[name]);
      setErrors((prev) => ({ ...prev, [name]: error ?? undefined }));
      return error;
    },
    [fields],
  );

  const setValue = useCallback(
    (name: string, value: unknown, { validate = false }: { validate?: boolean } = {}) => {
      valuesRef.current = { ...valuesRef.current, [name]: value };
      setValues(valuesRef.current);
      if (validate || submittedRef.current) validateOne(name);
      return valuesRef.current;
    },
    [validateOne],
  );

  const blur = useCallback((name: string) => void validateOne(name), [validateOne]);

  /** Validates every field; marks the form as submitted so later changes re-validate. */
  const validateAll = useCallback((): boolean => {
    submittedRef.current = true;
    const next: TFormErrors = {};
    let valid = true;
    for (const [name, field] of activeFields(fields)) {
      const error = validateField(field, valuesRef.current[name]);
      if (error) valid = false;
      next[name] = error ?? undefined;
    }
    setErrors(next);
    return valid;
  }, [fields]);

  const setFieldError = useCallback((name: string, message: string) => {
    setErrors((prev) => ({ ...prev, [name]: { message } }));
  }, []);

  return { values, valuesRef, errors, setValue, blur, validateAll, setFieldError };
}
