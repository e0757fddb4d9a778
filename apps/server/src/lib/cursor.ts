import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { AppError } from './app-error';

/**
 * The position a list's page ends at, as an opaque `next_cursor` (decision 051): the last row's
 * sort key and id, joined and base64url-encoded. The next page's query asks for the rows strictly
 * after it in the list's order, so rows inserted between pages neither repeat nor skip one.
 */
export function encodeCursor(...parts: string[]): string {
  return Buffer.from(parts.join('|')).toString('base64url');
}

/**
 * The parts of a cursor, each matched by its pattern; anything else (a forged, truncated or
 * stale cursor) is the 400 of a bad `cursor` parameter.
 */
export function decodeCursor(cursor: string, patterns: readonly RegExp[]): string[] {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== patterns.length || parts.some((part, at) => !patterns[at]!.test(part)))
    throw new AppError('validation', { inputError: 'cursor', messageKey: 'validation.cursor' });
  return parts;
}

/** A microsecond timestamp as PostgreSQL prints it in UTC (`to_char(..., CURSOR_TIME_FORMAT)`). */
export const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const CURSOR_TIME_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"';
export const CURSOR_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const CURSOR_INTEGER = /^\d{1,19}$/;

/** A timestamp column as a cursor's time part (exact to the microsecond, unlike a JS Date). */
export function cursorTime(column: AnyColumn): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', ${sql.raw(`'${CURSOR_TIME_FORMAT}'`)})`;
}
