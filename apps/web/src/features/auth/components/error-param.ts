import i18n from '@/lib/i18n';

/**
 * The text for a page's `?error=` parameter: a known code has its own message, any other code the
 * generic text, and a sentence (the server localises what it writes) is shown as it is, cut short.
 * React renders it as text, so nothing in it is interpreted.
 */
export function errorParamText(value: string): string {
  if (/^[a-z0-9_.-]+$/i.test(value)) {
    const key = `auth:errorParam.${value}`;
    return i18n.exists(key) ? i18n.t(key) : i18n.t('common:error.description');
  }
  return value.slice(0, 300);
}
