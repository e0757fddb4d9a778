import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import type { TInvoice, TInvoiceList } from '@air/shared/schemas/billing';
import { CursorPagination, useCursorPages } from '@/components/table/cursor-pagination';
import { Badge, type TBadgeVariant } from '@/components/ui/badge';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format-date';
import { formatMoney } from '../lib/money';

const STATUS_BADGE: Record<TInvoice['status'], TBadgeVariant> = {
  paid: 'green',
  open: 'orange',
  void: 'default',
  uncollectible: 'red',
};

function PdfLink({ invoice }: { invoice: TInvoice }) {
  const { t } = useTranslation('billing');
  return (
    <a
      href={invoice.invoice_pdf}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
      aria-label={t('invoices.pdfOf', { number: invoice.number })}
    >
      <FileText className="size-4" aria-hidden="true" />
      {t('invoices.pdf')}
    </a>
  );
}

/**
 * The Invoices tab: number, date, status, total and the PDF, which opens in a new tab. A table on
 * wide screens; on a phone each invoice is a compact card, so no column hides off screen. Paged by
 * cursor (decision 051): the billing page's first page (the newest 50), then Previous and Next.
 */
export function InvoicesTab({ firstPage }: { firstPage: TInvoiceList }) {
  const { t, i18n } = useTranslation('billing');
  const handleError = useErrorHandler();
  const pages = useCursorPages();
  const cursor = pages.cursor;
  // Under the call's name, so a write that invalidates the invoices refreshes every page.
  const later = useQuery({
    queryKey: ['GET /api/account/invoice', { cursor }] as const,
    queryFn: async ({ signal }) =>
      (await call('GET /api/account/invoice', { query: { cursor }, signal })).data,
    enabled: cursor !== undefined,
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (later.error) handleError(later.error);
  }, [later.error, handleError]);
  const shown = cursor === undefined ? firstPage : (later.data ?? firstPage);
  const invoices = shown.items;
  if (invoices.length === 0) return <p className="text-sm text-muted-foreground">{t('invoices.empty')}</p>;
  return (
    <div className="grid gap-4">
      <ul className="grid gap-3 sm:hidden" aria-label={t('tabs.invoices')}>
        {invoices.map((invoice) => (
          <li
            key={invoice.id}
            className="grid gap-1 rounded-lg border p-3 text-sm"
            data-invoice-card={invoice.number}
          >
            <div className="flex items-center justify-between gap-2">
              <span className="font-mono text-xs break-all">{invoice.number}</span>
              <Badge variant={STATUS_BADGE[invoice.status]}>{t(`invoices.statuses.${invoice.status}`)}</Badge>
            </div>
            <div className="flex items-center justify-between gap-2 text-muted-foreground">
              <span>{formatDateTime(invoice.date, i18n.language)}</span>
              <span className="font-medium text-foreground tabular-nums">
                {formatMoney(invoice.total, invoice.currency_symbol, i18n.language)}
              </span>
            </div>
            <PdfLink invoice={invoice} />
          </li>
        ))}
      </ul>
      <div className="hidden sm:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('invoices.number')}</TableHead>
              <TableHead>{t('invoices.date')}</TableHead>
              <TableHead>{t('invoices.status')}</TableHead>
              <TableHead className="text-right">{t('invoices.total')}</TableHead>
              <TableHead>
                <span className="sr-only">{t('invoices.pdf')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {invoices.map((invoice) => (
              <TableRow key={invoice.id} data-invoice={invoice.number}>
                <TableCell className="font-mono text-xs">{invoice.number}</TableCell>
                <TableCell className="whitespace-nowrap">
                  {formatDateTime(invoice.date, i18n.language)}
                </TableCell>
                <TableCell>
                  <Badge variant={STATUS_BADGE[invoice.status]}>
                    {t(`invoices.statuses.${invoice.status}`)}
                  </Badge>
                </TableCell>
                <TableCell className="text-right whitespace-nowrap tabular-nums">
                  {formatMoney(invoice.total, invoice.currency_symbol, i18n.language)}
                </TableCell>
                <TableCell>
                  <PdfLink invoice={invoice} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <CursorPagination pages={pages} nextCursor={shown.next_cursor} label={t('invoices.pages')} />
    </div>
  );
}
