import type { TFunction } from 'i18next';
import type { TFormErrors } from './use-form';

/**
 * The text shown for a field error: a server message attached to the field as is, else the
 * schema's message key translated from the `validation` part of the form catalogue. `{{field}}`
 * is the field's label (the server fills it with the field's name), or "Field" without one.
 */
export function errorText(t: TFunction, error: TFormErrors[string], label?: string): string | undefined {
  if (!error) return undefined;
  if ('message' in error) return error.message || undefined;
  return t(`form:${error.key}`, { ...error.params, field: label || t('form:form.field') });
}
