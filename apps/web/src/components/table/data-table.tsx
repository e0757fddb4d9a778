import { useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  createPaginatedRowModel,
  createSortedRowModel,
  rowPaginationFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type PaginationState,
  type RowSelectionState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { formatDateTime } from '@/lib/format-date';
import { TablePagination } from './pagination';
import { RowActionsMenu } from './row-actions-menu';
import { clampPage, compareValues, pageCount, searchRows } from './rows';
import { SortMenu } from './sort-menu';
import { STACKED } from './stacked';
import { TableToolbar } from './toolbar';
import type { TColumn, TDataTableProps } from './types';

// Sorting, paging and selection come from TanStack Table (v9: only the features registered here
// are bundled). Search stays a plain filter of the data before the table: it reads keys that are
// not always columns (`searchKeys`).
const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  rowPaginationFeature,
  paginatedRowModel: createPaginatedRowModel(),
  rowSelectionFeature,
});

type TFeatures = typeof features;

/** The table's row: the caller's row boxed, since TanStack's rows must be records and T is anything. */
interface TBoxed<T> {
  row: T;
}

function defaultRowId(row: unknown): string {
  return String((row as { id?: unknown }).id);
}

/** A click or Enter on one of these inside a row is theirs, not the row's. */
const INTERACTIVE = 'a, button, input, select, textarea, [role="checkbox"], [role="menuitem"], [role="menu"]';

/**
 * The console's list table (spec section 2): search, sorting, selection with bulk actions, a
 * per-row actions menu, paging through the `page` query parameter, a translated empty message,
 * dates as date + time without milliseconds, and rows that open on click and on Enter when
 * `onRowClick` is given (the row itself takes the focus; its checkbox and menu keep their own keys).
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
  onRowClick,
  rowLabel,
}: TDataTableProps<T>) {
  const { t, i18n } = useTranslation('table');
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState('');
  const [sorting, setSorting] = useState<SortingState>([]);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});

  const rows = useMemo(() => searchRows(data ?? [], query, searchKeys), [data, query, searchKeys]);
  const boxed = useMemo<TBoxed<T>[]>(() => rows.map((row) => ({ row })), [rows]);
  const pages = pageCount(rows.length, pageSize);
  const page = clampPage(params.get('page'), pages);
  const pagination: PaginationState = { pageIndex: page - 1, pageSize };
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

  const columnDefs = useMemo<ColumnDef<TFeatures, TBoxed<T>>[]>(
    () =>
      columns.map((column) => ({
        id: column.key,
        accessorFn: (boxed: TBoxed<T>) => boxed.row[column.key] as unknown,
        header: column.header,
        enableSorting: Boolean(column.sortable),
        sortFn: (a, b, id) => compareValues(a.getValue(id), b.getValue(id)),
      })),
    [columns],
  );

  const table = useTable({
    features,
    columns: columnDefs,
    data: boxed,
    getRowId: (boxed: TBoxed<T>) => getRowId(boxed.row),
    state: { sorting, pagination, rowSelection },
    onSortingChange: setSorting,
    onRowSelectionChange: setRowSelection,
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = typeof updater === 'function' ? updater(pagination) : updater;
      goToPage(next.pageIndex + 1);
    },
    enableSortingRemoval: false,
    autoResetPageIndex: false,
  });

  const visible = table.getRowModel().rows;
  // Selection only ever refers to rows that still exist (after a delete or a refetch).
  const selectedRows = (data ?? []).filter((row) => rowSelection[getRowId(row)]);
  const sortableColumns = columns.filter((column) => column.sortable);
  const columnCount = columns.length + (selectable ? 1 : 0) + (hasActions ? 1 : 0);

  function renderCell(row: T, column: TColumn<T>) {
    if (column.cell) return column.cell(row);
    const value = row[column.key];
    if (column.type === 'date') return formatDateTime(value, i18n.language);
    return value == null ? '' : String(value);
  }

  function openFromClick(event: MouseEvent<HTMLTableRowElement>, row: T) {
    const target = event.target as HTMLElement;
    if (target.closest(INTERACTIVE) && target.closest(INTERACTIVE) !== event.currentTarget) return;
    // Selecting text in a row is not opening it.
    if (window.getSelection()?.toString()) return;
    onRowClick?.(row);
  }

  function openFromKey(event: KeyboardEvent<HTMLTableRowElement>, row: T) {
    if (event.key !== 'Enter' || event.target !== event.currentTarget) return;
    event.preventDefault();
    onRowClick?.(row);
  }

  const selectAll = (
    <Checkbox
      aria-label={t('selectAll')}
      checked={
        table.getIsAllPageRowsSelected() ? true : table.getIsSomePageRowsSelected() ? 'indeterminate' : false
      }
      disabled={visible.length === 0}
      onCheckedChange={(checked) => table.toggleAllPageRowsSelected(checked === true)}
    />
  );

  return (
    <div className="space-y-4">
      {(searchKeys?.length || toolbar || (bulkActions?.length && selectedRows.length > 0)) && (
        <TableToolbar
          search={Boolean(searchKeys?.length)}
          query={query}
          onQueryChange={(next) => {
            setQuery(next);
            if (page !== 1) goToPage(1);
          }}
          bulkActions={bulkActions}
          selectedRows={selectedRows}
          onBulkDone={() => setRowSelection({})}
          toolbar={toolbar}
        />
      )}

      <div className="rounded-md border">
        <Table aria-label={label} aria-busy={loading || undefined} className={STACKED.table}>
          <TableHeader className={STACKED.header}>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id} className={STACKED.headerRow}>
                {selectable && <TableHead className={cn('w-10', STACKED.headerCell)}>{selectAll}</TableHead>}
                {group.headers.map((header) => {
                  const column = header.column;
                  const direction = column.getIsSorted();
                  const title = columns.find((c) => c.key === column.id)!;
                  return (
                    <TableHead
                      key={header.id}
                      className={cn(title.className, 'max-sm:hidden')}
                      aria-sort={direction ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      {column.getCanSort() ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          // A long header ("Platform fee") wraps rather than widening its
                          // column past the screen.
                          className="-ml-3 h-auto min-h-8 py-1 text-left whitespace-normal"
                          onClick={() => column.toggleSorting(direction === 'asc')}
                        >
                          {title.header}
                          {direction === 'asc' ? (
                            <ArrowUp aria-hidden="true" />
                          ) : direction === 'desc' ? (
                            <ArrowDown aria-hidden="true" />
                          ) : (
                            <ArrowUpDown aria-hidden="true" className="opacity-50" />
                          )}
                        </Button>
                      ) : (
                        title.header
                      )}
                    </TableHead>
                  );
                })}
                {hasActions && (
                  <TableHead className="w-12 max-sm:hidden">
                    <span className="sr-only">{t('actions')}</span>
                  </TableHead>
                )}
                {sortableColumns.length > 0 && (
                  <TableHead className={cn('ml-auto sm:hidden', STACKED.headerCell)} data-testid="phone-sort">
                    <SortMenu columns={columns} sorting={sorting} onSortingChange={setSorting} />
                  </TableHead>
                )}
              </TableRow>
            ))}
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
                  {query.trim() && (data?.length ?? 0) > 0 ? (
                    <span>
                      {t('noMatch', { query: query.trim() })}{' '}
                      <Button variant="link" className="h-auto p-0" onClick={() => setQuery('')}>
                        {t('clearSearch')}
                      </Button>
                    </span>
                  ) : (
                    (emptyMessage ?? t('empty'))
                  )}
                </TableCell>
              </TableRow>
            ) : (
              visible.map((tableRow) => {
                const row = tableRow.original.row;
                const isSelected = tableRow.getIsSelected();
                return (
                  <TableRow
                    key={tableRow.id}
                    data-state={isSelected ? 'selected' : undefined}
                    tabIndex={onRowClick ? 0 : undefined}
                    aria-label={onRowClick && rowLabel ? rowLabel(row) : undefined}
                    onClick={onRowClick ? (event) => openFromClick(event, row) : undefined}
                    onKeyDown={onRowClick ? (event) => openFromKey(event, row) : undefined}
                    className={cn(
                      STACKED.row,
                      selectable && 'max-sm:pl-12',
                      onRowClick &&
                        'cursor-pointer focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
                    )}
                  >
                    {selectable && (
                      <TableCell className={STACKED.selectCell}>
                        <Checkbox
                          aria-label={t('selectRow')}
                          checked={isSelected}
                          onCheckedChange={(checked) => tableRow.toggleSelected(checked === true)}
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
                        <RowActionsMenu row={row} actions={actions ?? []} />
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
        <TablePagination
          page={page}
          pages={pages}
          canPrevious={table.getCanPreviousPage()}
          canNext={table.getCanNextPage()}
          onPrevious={() => table.previousPage()}
          onNext={() => table.nextPage()}
        />
      )}
    </div>
  );
}
