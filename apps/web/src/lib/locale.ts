import { call } from '@/lib/api';
import { setLocale, type TLocale } from '@/lib/i18n';
import { getSession, updateUser } from '@/lib/session';

/** Change the language at once, keep it on this device and, when signed in, on the user. */
export function changeLocale(locale: TLocale) {
  setLocale(locale);
  const { token, user } = getSession();
  if (token && user) {
    updateUser({ locale });
    call('PATCH /api/user', { body: { locale } }).catch(() => undefined);
  }
}
