/** One block of a help section: a paragraph, a list, a code sample or a two-column table. */
export type THelpBlock =
  | { p: string }
  | { list: string[] }
  | { code: string }
  | { table: { head: [string, string]; rows: [string, string][] } };

export interface THelpSection {
  /** The anchor: /help#<id>. */
  id: string;
  title: string;
  blocks: THelpBlock[];
}

/** Plain text of a block, for the page's search. */
export function blockText(block: THelpBlock): string {
  if ('p' in block) return block.p;
  if ('list' in block) return block.list.join('\n');
  if ('code' in block) return block.code;
  return [block.table.head, ...block.table.rows].flat().join('\n');
}
