import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAdoptShell } from '@/app/shell';

/** The router's error screen (spec section 8): the fixed heading plus the status or message. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  // An error on `/` or `/signin` replaces the static sign-in page too.
  useAdoptShell();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`.trim()
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center gap-3 p-6">
      <h1 className="text-2xl font-semibold">{t('error.unexpected')}</h1>
      <p className="text-muted-foreground">
        <i>{detail}</i>
      </p>
    </main>
  );
}
