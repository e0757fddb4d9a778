/**
 * Below the `sm` breakpoint each row is a stacked card (a label before every value, the row's
 * checkbox and actions menu pinned in its corners), so a phone never scrolls sideways to reach
 * the actions. The header row becomes the bar above the cards: the select-all box and one Sort
 * menu in place of the column headers. Same DOM at every width.
 */
export const STACKED = {
  table: 'max-sm:block',
  header: 'max-sm:block [&_tr]:max-sm:border-b-0',
  headerRow: 'max-sm:flex max-sm:items-center max-sm:gap-2 max-sm:px-2 max-sm:py-1',
  headerCell: 'max-sm:h-auto max-sm:px-2 max-sm:py-1',
  body: 'max-sm:block',
  row: 'max-sm:relative max-sm:block max-sm:py-2 max-sm:pr-14 max-sm:pl-3',
  selectCell: 'max-sm:absolute max-sm:top-3 max-sm:left-3 max-sm:p-0',
  cell: 'max-sm:flex max-sm:items-baseline max-sm:gap-2 max-sm:px-0 max-sm:py-1 max-sm:[overflow-wrap:anywhere] max-sm:before:w-28 max-sm:before:shrink-0 max-sm:before:font-medium max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]',
  actionsCell: 'max-sm:absolute max-sm:top-1 max-sm:right-1 max-sm:p-0',
} as const;
