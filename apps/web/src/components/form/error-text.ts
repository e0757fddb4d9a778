import type { TFunction } from 'i18next';
import type { TIssueMessage } from '@air/shared/validation';
import type { TFieldError } from './use-form';

/**
 * The text shown for a field error: a server message attached to the field as is, else the
 * schema's message key translated from the `validation` part of the form catalogue. `{{field}}`
 * is the field's label (the server fills it with the field's name), or "Field" without one.
 */
export function errorText(
  t: TFunction,
  error: TFieldError | TIssueMessage | undefined,
  label?: string,
): string | undefined {
  if (!error) return undefined;
  const [key, params] = 'key' in error ? [error.key, error.params] : [error.message, error.params];
  if (!key) return undefined;
  if (!('key' in error) && error.type !== 'schema') return key;
  return t(`form:${key}`, { ...params, field: label || t('form:form.field') });
}
