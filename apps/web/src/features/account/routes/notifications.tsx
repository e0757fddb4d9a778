import { useTranslation } from 'react-i18next';
import { NOTIFICATION_NAMES, ZNotificationUpdate } from '@air/shared/schemas/notification';
import { Loader2 } from 'lucide-react';
import { Form } from '@/components/form/form';
import type { TFormFields } from '@/components/form/types';
import { PageHeading } from '@/components/layout/page-heading';
import { useApiQuery } from '@/features/account/lib/use-api-query';

/** The notification preferences (spec section 9, plus quota warnings), in display order. */
export { NOTIFICATION_NAMES };

/** `GET /api/notification` as a name → active map: a list of `{ name, active }` or a map already. */
export function readPreferences(data: unknown): Record<string, boolean> {
  if (Array.isArray(data)) {
    return Object.fromEntries(
      data
        .filter((p): p is { name: string; active: unknown } => typeof p?.name === 'string')
        .map((p) => [p.name, p.active !== false]),
    );
  }
  if (data && typeof data === 'object') {
    return Object.fromEntries(Object.entries(data).map(([name, active]) => [name, active !== false]));
  }
  return {};
}

/**
 * /account/notifications (GET/PATCH /api/notification): one switch per preference, saved on each
 * change (the form's autoSubmit). Preferences default to on.
 */
export default function NotificationsPage() {
  const { t } = useTranslation('account');
  const query = useApiQuery('GET /api/notification');
  const preferences = readPreferences(query.data);

  const fields: TFormFields = Object.fromEntries(
    NOTIFICATION_NAMES.map((name) => [
      name,
      {
        type: 'switch',
        label: t(`notifications.${name}`),
        description: t(`notifications.${name}_hint`),
        value: preferences[name] ?? true,
      },
    ]),
  );

  return (
    <>
      <PageHeading />
      <p className="mb-6 text-sm text-muted-foreground">{t('notifications.intro')}</p>
      {query.isPending ? (
        <div role="status" className="flex justify-center py-8">
          <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label={t('common:loading')} />
        </div>
      ) : (
        <Form
          key={query.dataUpdatedAt}
          fields={fields}
          schema={ZNotificationUpdate}
          call="PATCH /api/notification"
          autoSubmit
        />
      )}
    </>
  );
}
