/** Client-side search: a row matches when any searched key contains the query, case-insensitively. */
export function searchRows<T>(rows: T[], query: string, keys: (keyof T & string)[] | undefined): T[] {
  const q = query.trim().toLowerCase();
  if (!q || !keys?.length) return rows;
  return rows.filter((row) =>
    keys.some((key) =>
      String(row[key] ?? '')
        .toLowerCase()
        .includes(q),
    ),
  );
}

/** Nulls last; numbers, booleans and text (numeric-aware, case-insensitive) each in their order. */
export function compareValues(a: unknown, b: unknown): number {
  if (a == null && b == null) return 0;
  if (a == null) return 1;
  if (b == null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The `page` query parameter as a page number within range (1-based). */
export function clampPage(raw: string | null, pages: number): number {
  const n = Number.parseInt(raw ?? '1', 10);
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, pages);
}
