import { useEffect, useRef, useState } from 'react';
import { onDemand, useOnDemand } from '@/lib/on-demand';
import { FeedbackButton } from './overlay-triggers';
import type { TFeedbackDraft } from './feedback-form';

export const FEEDBACK_CLOSE_DELAY = 3_000;

// The panel (Radix Popover, its Popper and layers, the form and its engine) loads on first use; see
// lib/on-demand.ts. The form used to be fetched as the shell mounted: its preload links and its
// modules' evaluation (the shared zod schemas) then ran in the page's first busy second (decision 064).
const popover = onDemand(() => import('./feedback-popover'));
const EMPTY_DRAFT: TFeedbackDraft = { rating: '', comment: '' };

/**
 * Floating heart: rate the console and leave a comment (FeedbackForm, on the one form engine);
 * what is typed stays while the panel is closed; the panel closes 3 s after sending. Until the
 * panel's code is there the same button stands in, with a closed popover trigger's ARIA state;
 * pointer or focus on it fetches the code, a click (Enter, Space) opens the panel once it is there.
 */
export function FeedbackWidget() {
  const { module, request, standIn } = useOnDemand(popover);
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const draft = useRef<TFeedbackDraft>(EMPTY_DRAFT);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  function onSent() {
    setSent(true);
    timer.current = setTimeout(() => {
      setOpen(false);
      draft.current = EMPTY_DRAFT;
      setSent(false);
    }, FEEDBACK_CLOSE_DELAY);
  }

  if (module)
    return (
      <module.FeedbackPopover open={open} onOpenChange={setOpen} sent={sent} draft={draft} onSent={onSent} />
    );
  return (
    <FeedbackButton
      {...standIn('dialog')}
      onClick={() => {
        setOpen(true);
        request();
      }}
    />
  );
}
