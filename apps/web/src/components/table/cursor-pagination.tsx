import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

/**
 * The pages of a cursor-paged list (decision 051: `?cursor=` in, `{ items, next_cursor }` out): the
 * cursor each page was asked with, the first page's none. `reset` goes back to the first page (a
 * changed filter).
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: cursors.at(-1),
    page: cursors.length,
    // A second press while the next page loads names the same cursor: one page on, not two.
    next: (cursor: string) => setCursors((list) => (list.at(-1) === cursor ? list : [...list, cursor])),
    previous: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    reset: () => setCursors([undefined]),
  };
}

export type TCursorPages = ReturnType<typeof useCursorPages>;

/**
 * Previous, "Page N" and Next under a cursor-paged list, shown once there is more than one page.
 * Buttons, so Tab and Enter or Space page it; the page number is announced as it changes, and a
 * button that becomes disabled under the keyboard's focus (the first or the last page) hands the
 * focus to the other one instead of dropping it.
 */
export function CursorPagination({
  pages,
  nextCursor,
  label,
}: {
  pages: TCursorPages;
  /** The shown page's `next_cursor` (null on the last page). */
  nextCursor: string | null | undefined;
  /** What the list is, for the navigation's name (e.g. "Invoices pages"). */
  label?: string;
}) {
  const { t } = useTranslation('table');
  const previousRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const { page } = pages;
  const canPrevious = page > 1;
  const canNext = Boolean(nextCursor);
  // The button last pressed, while it still holds the focus (or lost it to its being disabled).
  const pressed = useRef<'previous' | 'next' | null>(null);
  useEffect(() => {
    const focused = document.activeElement;
    const lost = focused === null || focused === document.body;
    if (pressed.current === 'previous' && !canPrevious && (lost || focused === previousRef.current))
      nextRef.current?.focus();
    else if (pressed.current === 'next' && !canNext && (lost || focused === nextRef.current))
      previousRef.current?.focus();
  }, [canPrevious, canNext]);
  if (!canPrevious && !canNext) return null;
  return (
    <nav className="flex items-center justify-end gap-2" aria-label={label ?? t('pagination')}>
      <Button
        ref={previousRef}
        variant="outline"
        size="sm"
        disabled={!canPrevious}
        onClick={() => {
          pressed.current = 'previous';
          pages.previous();
        }}
      >
        {t('previous')}
      </Button>
      <span className="text-sm text-muted-foreground" aria-live="polite">
        {t('page', { page })}
      </span>
      <Button
        ref={nextRef}
        variant="outline"
        size="sm"
        disabled={!canNext}
        onClick={() => {
          pressed.current = 'next';
          if (nextCursor) pages.next(nextCursor);
        }}
      >
        {t('next')}
      </Button>
    </nav>
  );
}
