import type { ReactNode } from 'react';

export interface TColumn<T> {
  /** Property read for the cell, sorting and searching. */
  key: keyof T & string;
  header: string;
  sortable?: boolean;
  /** 'date' renders date + time without milliseconds. */
  type?: 'text' | 'date';
  /** Custom renderer (badges, links). */
  cell?: (row: T) => ReactNode;
  className?: string;
}

export interface TRowAction<T> {
  label: string;
  onSelect: (row: T) => void;
  destructive?: boolean;
  /** Hide the action for rows where it does not apply. */
  show?: (row: T) => boolean;
}

export interface TBulkAction<T> {
  label: string;
  onSelect: (rows: T[]) => void;
  destructive?: boolean;
}

export interface TDataTableProps<T> {
  data: T[] | undefined;
  columns: TColumn<T>[];
  /** Stable row identity for selection; defaults to the row's `id`. */
  getRowId?: (row: T) => string;
  /** Keys searched by the search box; no search box when absent. */
  searchKeys?: (keyof T & string)[];
  /** Enables the per-row and select-all checkboxes. */
  selectable?: boolean;
  /** Per-row actions menu. */
  actions?: TRowAction<T>[];
  /** Actions over the selected rows, shown while any row is selected. */
  bulkActions?: TBulkAction<T>[];
  /** Rows per page, read with the `page` query parameter (1-based). Default 10. */
  pageSize?: number;
  loading?: boolean;
  /** Replaces the translated empty message. */
  emptyMessage?: ReactNode;
  /** Extra controls beside the search box (e.g. a New button). */
  toolbar?: ReactNode;
  /** Accessible name of the table. */
  label?: string;
  /** Opens a row's detail: on a click in the row (not on its controls) and on Enter when it has focus. */
  onRowClick?: (row: T) => void;
  /** The row's accessible name when it opens something (its identity, e.g. the route name). */
  rowLabel?: (row: T) => string;
}
