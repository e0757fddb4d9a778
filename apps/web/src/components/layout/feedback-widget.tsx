import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Heart, X } from 'lucide-react';
import { Popover } from 'radix-ui';
import { Button } from '@/components/ui/button';
import { LoadingStatus } from '@/components/ui/loading-status';
import type { TFeedbackDraft } from './feedback-form';

export const FEEDBACK_CLOSE_DELAY = 3_000;

// The form and its engine load after the shell's first paint (see the effect below), so the shell
// carries no form code; by the time anyone opens the panel they are there.
const loadFeedbackForm = () => import('./feedback-form');
const FeedbackForm = lazy(() => loadFeedbackForm().then((m) => ({ default: m.FeedbackForm })));
const EMPTY_DRAFT: TFeedbackDraft = { rating: '', comment: '' };

/**
 * Floating heart: rate the console and leave a comment (FeedbackForm, on the one form engine);
 * what is typed stays while the panel is closed; the panel closes 3 s after sending.
 */
export function FeedbackWidget() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const draft = useRef<TFeedbackDraft>(EMPTY_DRAFT);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => void loadFeedbackForm(), []);
  useEffect(() => () => clearTimeout(timer.current), []);

  function onSent() {
    setSent(true);
    timer.current = setTimeout(() => {
      setOpen(false);
      draft.current = EMPTY_DRAFT;
      setSent(false);
    }, FEEDBACK_CLOSE_DELAY);
  }

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button
          size="icon"
          aria-label={t('feedback.open')}
          className="fixed right-4 bottom-4 z-40 rounded-full shadow-lg"
        >
          <Heart aria-hidden="true" />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side="top"
          align="end"
          sideOffset={8}
          className="z-50 w-72 rounded-lg border bg-popover p-4 text-popover-foreground shadow-lg"
        >
          <div className="mb-3 flex items-center justify-between">
            <h2 className="text-sm font-semibold">{t('feedback.title')}</h2>
            <Popover.Close aria-label={t('dialog.close')} className="rounded-sm opacity-70 hover:opacity-100">
              <X className="size-4" aria-hidden="true" />
            </Popover.Close>
          </div>
          {sent ? (
            <p role="status" className="text-sm">
              {t('feedback.thanks')}
            </p>
          ) : (
            <Suspense fallback={<LoadingStatus className="flex text-sm" label={t('loading')} />}>
              <FeedbackForm draft={draft} onSent={onSent} />
            </Suspense>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
