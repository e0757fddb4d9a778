import { useTranslation } from 'react-i18next';
import { FileText, Download } from 'lucide-react';
import type { TPayout, TPayouts } from '@air/shared/schemas/payout';
import { Badge } from '@/components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format-date';
import { formatAmount } from '@/features/earnings/earnings-figures';
import { monthLabel } from '@/features/earnings/routes/earnings';

/** Each month's payout: amount, status (or why it waits), where it went, the lines it pays, the statement. */
export function PayoutList({ data }: { data: TPayouts }) {
  return (
    <ul className="space-y-3" aria-label="payouts">
      {data.payouts.map((payout) => (
        <li key={payout.id}>
          <PayoutCard payout={payout} data={data} />
        </li>
      ))}
    </ul>
  );
}

function PayoutCard({ payout, data }: { payout: TPayout; data: TPayouts }) {
  const { t, i18n } = useTranslation('payouts');
  const locale = i18n.language;
  const money = (minor: number) => formatAmount(minor, data.currency, locale);
  const amount = 'text-right tabular-nums whitespace-nowrap';
  return (
    <article
      className="space-y-3 rounded-md border p-4"
      aria-labelledby={`payout-${payout.id}`}
      data-testid="payout"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={`payout-${payout.id}`} className="font-semibold">
            {monthLabel(payout.period, locale)}
          </h3>
          <p className="text-sm text-muted-foreground">
            {payout.status === 'paid' && payout.paid_at
              ? t('payout.paidOn', {
                  date: formatDateTime(payout.paid_at, locale),
                  destination: payout.destination ?? '',
                })
              : t(`waiting.${payout.waiting ?? 'processor_unavailable'}`)}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <span className="text-lg font-semibold tabular-nums">{money(payout.amount)}</span>
          <Badge variant={payout.status === 'paid' ? 'green' : 'orange'}>
            {t(`status.${payout.status}`)}
          </Badge>
        </div>
      </div>
      <details className="group">
        <summary className="cursor-pointer text-sm text-primary underline-offset-4 hover:underline">
          {t('payout.lines', { count: payout.lines.length })}
        </summary>
        <div className="mt-2 overflow-x-auto">
          <Table aria-label={t('payout.linesLabel', { period: monthLabel(payout.period, locale) })}>
            <TableHeader>
              <TableRow>
                <TableHead>{t('col.line')}</TableHead>
                <TableHead>{t('col.month')}</TableHead>
                <TableHead className={amount}>{t('col.calls')}</TableHead>
                <TableHead className={amount}>{t('col.gross')}</TableHead>
                <TableHead className={amount}>{t('col.fee')}</TableHead>
                <TableHead className={amount}>{t('col.net')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {payout.lines.map((line) => (
                <TableRow key={`${line.kind} ${line.route_name} ${line.month}`}>
                  <TableCell>
                    <span className="block text-xs text-muted-foreground">{t(`kind.${line.kind}`)}</span>
                    <span className="font-mono text-xs break-all">{line.route_name}</span>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{monthLabel(line.month, locale)}</TableCell>
                  <TableCell className={amount}>{line.calls}</TableCell>
                  <TableCell className={amount}>{money(line.gross)}</TableCell>
                  <TableCell className={amount}>{money(line.fee)}</TableCell>
                  <TableCell className={amount}>{money(line.net)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </details>
      <div className="flex flex-wrap gap-4 text-sm">
        <a
          href={payout.statement_pdf}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
          aria-label={t('payout.pdfOf', { period: monthLabel(payout.period, locale) })}
        >
          <FileText className="size-4" aria-hidden="true" />
          {t('payout.pdf')}
        </a>
        <a
          href={payout.statement_csv}
          download
          className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline"
          aria-label={t('payout.csvOf', { period: monthLabel(payout.period, locale) })}
        >
          <Download className="size-4" aria-hidden="true" />
          {t('payout.csv')}
        </a>
      </div>
    </article>
  );
}
