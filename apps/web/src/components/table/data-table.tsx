import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowDown, ArrowUp, ArrowUpDown, Loader2, MoreHorizontal, Search } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { formatDateTime } from './format';
import { clampPage, pageCount, searchRows, sortRows } from './rows';
import type { TColumn, TDataTableProps, TSortState } from './types';

/**
 * Below the `sm` breakpoint each row is a stacked card (a label before every value, the row's
 * checkbox and actions menu pinned in its corners), so a phone never scrolls sideways to reach
 * the actions. The header row becomes the sort and select-all toolbar. Same DOM at every width.
 */
const STACKED = {
  table: 'max-sm:block',
  header: 'max-sm:block [&_tr]:max-sm:border-b-0',
  headerRow: 'max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-1 max-sm:px-2 max-sm:py-1',
  headerCell: 'max-sm:h-auto max-sm:px-2 max-sm:py-1',
  body: 'max-sm:block',
  row: 'max-sm:relative max-sm:block max-sm:py-2 max-sm:pr-14 max-sm:pl-3',
  selectCell: 'max-sm:absolute max-sm:top-3 max-sm:left-3 max-sm:p-0',
  cell: 'max-sm:flex max-sm:items-baseline max-sm:gap-2 max-sm:px-0 max-sm:py-1 max-sm:[overflow-wrap:anywhere] max-sm:before:w-28 max-sm:before:shrink-0 max-sm:before:font-medium max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]',
  actionsCell: 'max-sm:absolute max-sm:top-1 max-sm:right-1 max-sm:p-0',
} as const;

function defaultRowId(row: unknown): string {
  return String((row as { id?: unknown }).id);
}

/**
 * The console's list table (spec section 2): search, sorting, selection with bulk actions, a
 * per-row actions menu, paging through the `page` query parameter, a translated empty message,
 * and dates as date + time without milliseconds.
 */
export function DataTable<T>({
  data,
  columns,
  getRowId = defaultRowId,
  searchKeys,
  selectable,
  actions,
  bulkActions,
  pageSize = 10,
  loading,
  emptyMessage,
  toolbar,
  label,
}: TDataTableProps<T>) {
  const { t, i18n } = useTranslation('table');
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<TSortState<T>>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const rows = useMemo(
    () => sortRows(searchRows(data ?? [], query, searchKeys), sort),
    [data, query, searchKeys, sort],
  );
  const pages = pageCount(rows.length, pageSize);
  const page = clampPage(params.get('page'), pages);
  const visible = rows.slice((page - 1) * pageSize, page * pageSize);
  // Selection only ever refers to rows that still exist (after a delete or a refetch).
  const selectedRows = (data ?? []).filter((row) => selected.has(getRowId(row)));
  const visibleIds = visible.map(getRowId);
  const allVisibleSelected = visibleIds.length > 0 && visibleIds.every((id) => selected.has(id));
  const someVisibleSelected = visibleIds.some((id) => selected.has(id));
  const hasActions = Boolean(actions?.length);

  function goToPage(next: number) {
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (next <= 1) out.delete('page');
        else out.set('page', String(next));
        return out;
      },
      { replace: false },
    );
  }

  function toggleSort(column: TColumn<T>) {
    setSort((prev) =>
      prev?.key === column.key
        ? { key: column.key, direction: prev.direction === 'asc' ? 'desc' : 'asc' }
        : { key: column.key, direction: 'asc' },
    );
  }

  function toggleRow(id: string, on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function toggleAll(on: boolean) {
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of visibleIds) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }

  function renderCell(row: T, column: TColumn<T>) {
    if (column.cell) return column.cell(row);
    const value = row[column.key];
    if (column.type === 'date') return formatDateTime(value, i18n.language);
    return value == null ? '' : String(value);
  }

  const columnCount = columns.length + (selectable ? 1 : 0) + (hasActions ? 1 : 0);

  return (
    <div className="space-y-4">
      {(searchKeys?.length || toolbar || (bulkActions?.length && selectedRows.length > 0)) && (
        <div className="flex flex-wrap items-center gap-2">
          {searchKeys?.length ? (
            <div className="relative w-full sm:max-w-xs">
              <Search
                className="absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                type="search"
                aria-label={t('search')}
                placeholder={t('search')}
                value={query}
                className="pl-9"
                onChange={(event) => {
                  setQuery(event.target.value);
                  if (page !== 1) goToPage(1);
                }}
              />
            </div>
          ) : null}
          {bulkActions?.length && selectedRows.length > 0 ? (
            <div className="flex items-center gap-2" role="group" aria-label={t('bulkActions')}>
              <span className="text-sm text-muted-foreground">
                {t('selected', { count: selectedRows.length })}
              </span>
              {bulkActions.map((action) => (
                <Button
                  key={action.label}
                  size="sm"
                  variant={action.destructive ? 'destructive' : 'outline'}
                  onClick={() => {
                    action.onSelect(selectedRows);
                    setSelected(new Set());
                  }}
                >
                  {action.label}
                </Button>
              ))}
            </div>
          ) : null}
          {toolbar && <div className="ml-auto flex items-center gap-2">{toolbar}</div>}
        </div>
      )}

      <div className="rounded-md border">
        <Table aria-label={label} aria-busy={loading || undefined} className={STACKED.table}>
          <TableHeader className={STACKED.header}>
            <TableRow className={STACKED.headerRow}>
              {selectable && (
                <TableHead className={cn('w-10', STACKED.headerCell)}>
                  <Checkbox
                    aria-label={t('selectAll')}
                    checked={allVisibleSelected ? true : someVisibleSelected ? 'indeterminate' : false}
                    disabled={visible.length === 0}
                    onCheckedChange={(checked) => toggleAll(checked === true)}
                  />
                </TableHead>
              )}
              {columns.map((column) => {
                const direction = sort?.key === column.key ? sort.direction : null;
                return (
                  <TableHead
                    key={column.key}
                    className={cn(column.className, STACKED.headerCell, !column.sortable && 'max-sm:hidden')}
                    aria-sort={direction ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {column.sortable ? (
                      <Button variant="ghost" size="sm" className="-ml-3" onClick={() => toggleSort(column)}>
                        {column.header}
                        {direction === 'asc' ? (
                          <ArrowUp aria-hidden="true" />
                        ) : direction === 'desc' ? (
                          <ArrowDown aria-hidden="true" />
                        ) : (
                          <ArrowUpDown aria-hidden="true" className="opacity-50" />
                        )}
                      </Button>
                    ) : (
                      column.header
                    )}
                  </TableHead>
                );
              })}
              {hasActions && (
                <TableHead className="w-12 max-sm:hidden">
                  <span className="sr-only">{t('actions')}</span>
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody className={STACKED.body}>
            {loading ? (
              <TableRow>
                <TableCell colSpan={columnCount} className="h-24 text-center">
                  <span role="status" className="inline-flex items-center gap-2 text-muted-foreground">
                    <Loader2 className="size-4 animate-spin" aria-hidden="true" />
                    {t('loading')}
                  </span>
                </TableCell>
              </TableRow>
            ) : visible.length === 0 ? (
              <TableRow>
                <TableCell colSpan={columnCount} className="h-24 text-center text-muted-foreground">
                  {emptyMessage ?? t('empty')}
                </TableCell>
              </TableRow>
            ) : (
              visible.map((row) => {
                const id = getRowId(row);
                const isSelected = selected.has(id);
                const rowActions = (actions ?? []).filter((action) => !action.show || action.show(row));
                return (
                  <TableRow
                    key={id}
                    data-state={isSelected ? 'selected' : undefined}
                    className={cn(STACKED.row, selectable && 'max-sm:pl-12')}
                  >
                    {selectable && (
                      <TableCell className={STACKED.selectCell}>
                        <Checkbox
                          aria-label={t('selectRow')}
                          checked={isSelected}
                          onCheckedChange={(checked) => toggleRow(id, checked === true)}
                        />
                      </TableCell>
                    )}
                    {columns.map((column) => (
                      <TableCell
                        key={column.key}
                        data-label={column.header}
                        className={cn(column.className, STACKED.cell)}
                      >
                        {renderCell(row, column)}
                      </TableCell>
                    ))}
                    {hasActions && (
                      <TableCell className={cn('text-right', STACKED.actionsCell)}>
                        {rowActions.length > 0 && (
                          <DropdownMenu>
                            <DropdownMenuTrigger asChild>
                              <Button variant="ghost" size="icon" aria-label={t('actions')}>
                                <MoreHorizontal />
                              </Button>
                            </DropdownMenuTrigger>
                            <DropdownMenuContent align="end">
                              {rowActions.map((action) => (
                                <DropdownMenuItem
                                  key={action.label}
                                  className={cn(
                                    action.destructive && 'text-destructive focus:text-destructive',
                                  )}
                                  onSelect={() => action.onSelect(row)}
                                >
                                  {action.label}
                                </DropdownMenuItem>
                              ))}
                            </DropdownMenuContent>
                          </DropdownMenu>
                        )}
                      </TableCell>
                    )}
                  </TableRow>
                );
              })
            )}
          </TableBody>
        </Table>
      </div>

      {pages > 1 && (
        <nav className="flex items-center justify-end gap-2" aria-label={t('pagination')}>
          <span className="text-sm text-muted-foreground">{t('pageOf', { page, pages })}</span>
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => goToPage(page - 1)}>
            {t('previous')}
          </Button>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => goToPage(page + 1)}>
            {t('next')}
          </Button>
        </nav>
      )}
    </div>
  );
}
