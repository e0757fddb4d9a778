import { numberFormat } from '@/lib/format-number';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TUsageRow } from '@air/shared/schemas/usage-insight';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/** The frame both tables share: a bordered, scrolling table with its caption and header row. */
function CaptionedTable({
  caption,
  headers,
  children,
}: {
  caption: string;
  headers: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table>
        <caption className="caption-top p-2 text-left text-sm font-medium">{caption}</caption>
        <TableHeader>
          <TableRow>{headers}</TableRow>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </div>
  );
}

/** Calls by endpoint or by key: calls, status classes and tokens (estimated ones marked ≈). */
export function UsageRowsTable({
  caption,
  nameHeader,
  rows,
  locale,
}: {
  caption: string;
  nameHeader: string;
  rows: (TUsageRow & { name: string })[];
  locale: string;
}) {
  const { t } = useTranslation('usage');
  const number = numberFormat(locale);
  return (
    <CaptionedTable
      caption={caption}
      headers={
        <>
          <TableHead>{nameHeader}</TableHead>
          <TableHead className="text-right">{t('col.calls')}</TableHead>
          <TableHead className="text-right">2xx</TableHead>
          <TableHead className="text-right">4xx</TableHead>
          <TableHead className="text-right">5xx</TableHead>
          <TableHead className="text-right">{t('col.prompt')}</TableHead>
          <TableHead className="text-right">{t('col.completion')}</TableHead>
        </>
      }
    >
      {rows.map((row) => (
        <TableRow key={row.name}>
          <TableCell className="max-w-56 truncate font-mono text-xs" title={row.name}>
            {row.name}
          </TableCell>
          <TableCell className="text-right tabular-nums">{number.format(row.calls)}</TableCell>
          <TableCell className="text-right tabular-nums">{number.format(row.status_2xx)}</TableCell>
          <TableCell className="text-right tabular-nums">{number.format(row.status_4xx)}</TableCell>
          <TableCell className="text-right tabular-nums">{number.format(row.status_5xx)}</TableCell>
          <TableCell className="text-right tabular-nums">
            <Tokens value={row.prompt_tokens} estimated={row.estimated_calls} locale={locale} />
          </TableCell>
          <TableCell className="text-right tabular-nums">
            <Tokens value={row.completion_tokens} estimated={row.estimated_calls} locale={locale} />
          </TableCell>
        </TableRow>
      ))}
    </CaptionedTable>
  );
}

/** A token count; `≈` and a title when some of its calls had estimated tokens. */
export function Tokens({ value, estimated, locale }: { value: number; estimated: number; locale: string }) {
  const { t } = useTranslation('usage');
  const text = numberFormat(locale).format(value);
  if (estimated === 0) return <>{text}</>;
  return (
    <span title={t('estimated', { count: estimated })}>
      ≈{text}
      <span className="sr-only"> ({t('estimated', { count: estimated })})</span>
    </span>
  );
}

/** A plain two-column table (provider view: by endpoint, by organisation). */
export function CountTable({
  caption,
  nameHeader,
  rows,
  locale,
}: {
  caption: string;
  nameHeader: string;
  rows: { name: string; calls: number }[];
  locale: string;
}) {
  const { t } = useTranslation('usage');
  const number = numberFormat(locale);
  return (
    <CaptionedTable
      caption={caption}
      headers={
        <>
          <TableHead>{nameHeader}</TableHead>
          <TableHead className="text-right">{t('col.calls')}</TableHead>
        </>
      }
    >
      {rows.map((row) => (
        <TableRow key={row.name}>
          <TableCell className="max-w-56 truncate" title={row.name}>
            {row.name}
          </TableCell>
          <TableCell className="text-right tabular-nums">{number.format(row.calls)}</TableCell>
        </TableRow>
      ))}
    </CaptionedTable>
  );
}
