import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CursorPagination, useCursorPages } from '@/components/table/cursor-pagination';
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { deliveriesQuery } from '../webhooks-api';
import { formatDateTime } from '@/lib/format-date';

const STATUS_VARIANT = { delivered: 'green', pending: 'orange', failed: 'red' } as const;

/**
 * One webhook's delivery log: event, state, tries and the receiver's last answer. Paged by cursor
 * (decision 051, 50 deliveries a page) with Previous and Next; the page shown is asked again every
 * 5 s, so a retry's progress shows on whichever page it is.
 */
export function WebhookDeliveries({ id }: { id: string }) {
  const { t, i18n } = useTranslation('webhooks');
  const pages = useCursorPages();
  const query = useQuery({
    ...deliveriesQuery(id, pages.cursor),
    refetchInterval: 5_000,
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.items ?? [];
  const when = (iso: string | null) => formatDateTime(iso, i18n.language);
  if (query.isPending) return <p className="text-sm text-muted-foreground">{t('common:loading')}</p>;
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">{t('deliveries.none')}</p>;
  return (
    <div className="overflow-x-auto">
      <Table aria-label={t('deliveries.title')}>
        <TableHeader>
          <TableRow>
            <TableHead>{t('deliveries.event')}</TableHead>
            <TableHead>{t('deliveries.status')}</TableHead>
            <TableHead>{t('deliveries.attempts')}</TableHead>
            <TableHead>{t('deliveries.answer')}</TableHead>
            <TableHead>{t('deliveries.created')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell className="font-mono text-xs">{row.event}</TableCell>
              <TableCell>
                <Badge variant={STATUS_VARIANT[row.status]}>{t(`deliveries.state.${row.status}`)}</Badge>
                {row.next_attempt_at && (
                  <span className="ml-2 text-xs text-muted-foreground">
                    {t('deliveries.next', { when: when(row.next_attempt_at) })}
                  </span>
                )}
              </TableCell>
              <TableCell>{row.attempts}</TableCell>
              <TableCell className="max-w-48 truncate text-xs" title={row.error ?? undefined}>
                {row.response_status ?? row.error ?? ''}
              </TableCell>
              <TableCell className="whitespace-nowrap text-xs">{when(row.created_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <CursorPagination pages={pages} nextCursor={query.data?.next_cursor} label={t('deliveries.pages')} />
    </div>
  );
}
