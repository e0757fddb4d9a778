import type { TFunction } from 'i18next';
import type { TFormErrors } from './use-form';

/** The text shown for a field error: the field's errorMessage or server message, else the translation. */
export function errorText(t: TFunction, error: TFormErrors[string]): string | undefined {
  if (!error) return undefined;
  if ('message' in error && error.message) return error.message;
  if (!('key' in error)) return undefined;
  const params = error.params ?? {};
  const label = typeof params.label === 'string' && params.label ? params.label : t('form:form.field');
  return t(`form:${error.key}`, { ...params, label });
}
