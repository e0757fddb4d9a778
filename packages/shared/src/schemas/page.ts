import { z } from 'zod';

/**
 * The one pagination style of the console API's lists (decision 051, after the catalog's of
 * contract 5a): `?cursor=&limit=` in, `{ items, next_cursor }` out. `next_cursor` is the opaque
 * position after the page's last row (null on the last page): the next page starts there, so a
 * row inserted meanwhile never repeats a row or skips one, whatever the page size. `limit` is
 * honoured between 1 and the list's maximum; left out, the list's own default.
 */
export const ZCursor = z
  .string()
  .max(400)
  .regex(/^[A-Za-z0-9_-]+$/)
  .describe('The `next_cursor` of the previous page');

/** The query fields of a paged list: `cursor` and `limit`, with its default and maximum. */
export function pageQuery(sizes: { default: number; max: number }) {
  return {
    cursor: ZCursor.optional(),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(sizes.max)
      .default(sizes.default)
      .describe(`Rows on the page (default ${sizes.default}, at most ${sizes.max})`),
  };
}

/** A page of a list: its rows in the list's order and where the next page starts. */
export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
  });
}
