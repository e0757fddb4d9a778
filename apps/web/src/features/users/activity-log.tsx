import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ACTIVITY_TYPES, type TActivityEntry } from '@air/shared/schemas/activity';
import { formatDateTime } from '@/lib/format-date';
import { CursorPagination, useCursorPages } from '@/components/table/cursor-pagination';
import { useErrorHandler } from '@/lib/error-handler';
import { ACCOUNT_USERS_QUERY, activityQuery, fetchAccountUsers } from './users-api';
import { LoadingStatus } from '@/components/ui/loading-status';

const selectClass =
  'h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** The account's activity log (admins): who did what, newest first, filtered by member and type. */
export function ActivityLog() {
  const { t, i18n } = useTranslation('users');
  const handleError = useErrorHandler();
  const memberId = useId();
  const typeId = useId();
  const [member, setMember] = useState('');
  const [type, setType] = useState('');
  // Cursor pages (decision 051).
  const pages = useCursorPages();
  const members = useQuery({ queryKey: ACCOUNT_USERS_QUERY, queryFn: fetchAccountUsers });
  // The previous page stays while the next loads, so the member list does not empty meanwhile.
  const log = useQuery({
    ...activityQuery({ member, type, cursor: pages.cursor }),
    placeholderData: keepPreviousData,
  });
  // Current members, then anyone else the log names (removed since): all stay filterable.
  const current = new Set(members.data?.users.map((m) => m.id));
  const people = [
    ...(members.data?.users ?? []).map((m) => ({ id: m.id, label: `${m.name} (${m.email})` })),
    ...(log.data?.people ?? [])
      .filter((person) => !current.has(person.id))
      .map((person) => ({
        id: person.id,
        label: t('activity.removedMember', { name: person.name, email: person.email }),
      })),
  ];
  useEffect(() => {
    if (log.error) handleError(log.error);
  }, [log.error, handleError]);

  const describe = (entry: TActivityEntry) =>
    t(`activity.type.${entry.type}`, {
      ...entry.data,
      role: entry.data.role ? t(`role.${entry.data.role}`) : '',
      from: entry.data.from ? t(`role.${entry.data.from}`) : '',
      to: entry.data.to ? t(`role.${entry.data.to}`) : '',
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={memberId} className="text-sm font-medium">
            {t('activity.member')}
          </label>
          <select
            id={memberId}
            className={selectClass}
            value={member}
            onChange={(e) => {
              setMember(e.target.value);
              pages.reset();
            }}
          >
            <option value="">{t('activity.allMembers')}</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={typeId} className="text-sm font-medium">
            {t('activity.kind')}
          </label>
          <select
            id={typeId}
            className={selectClass}
            value={type}
            onChange={(e) => {
              setType(e.target.value);
              pages.reset();
            }}
          >
            <option value="">{t('activity.allTypes')}</option>
            {ACTIVITY_TYPES.map((value) => (
              <option key={value} value={value}>
                {t(`activity.typeName.${value}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {log.isPending ? (
        <LoadingStatus className="flex text-sm" label={t('activity.loading')} />
      ) : log.data && log.data.items.length > 0 ? (
        <ol aria-label={t('activity.label')} className="divide-y rounded-md border">
          {log.data.items.map((entry) => (
            <li
              key={entry.id}
              data-type={entry.type}
              className="flex flex-col gap-1 p-3 sm:flex-row sm:gap-4"
            >
              <time
                dateTime={entry.created_at}
                className="shrink-0 text-sm text-muted-foreground tabular-nums"
              >
                {formatDateTime(entry.created_at, i18n.language)}
              </time>
              <span className="text-sm">
                <span className="font-medium">{entry.actor?.name ?? t('activity.system')}</span>{' '}
                {describe(entry)}
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="rounded-md border p-6 text-center text-sm text-muted-foreground">
          {t('activity.empty')}
        </p>
      )}
      <CursorPagination pages={pages} nextCursor={log.data?.next_cursor} />
    </div>
  );
}
