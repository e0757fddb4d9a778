import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Frown, Heart, Meh, Smile, X } from 'lucide-react';
import { Popover } from 'radix-ui';
import { call } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useErrorHandler } from '@/lib/error-handler';
import { Button } from '@/components/ui/button';

export const FEEDBACK_CLOSE_DELAY = 3_000;
const RATINGS = [
  { value: 'positive', icon: Smile },
  { value: 'neutral', icon: Meh },
  { value: 'negative', icon: Frown },
] as const;
type TRating = (typeof RATINGS)[number]['value'];

/** Floating heart: rate the console and leave a comment; the panel closes 3 s after sending. */
export function FeedbackWidget() {
  const { t } = useTranslation();
  const handleError = useErrorHandler();
  const [open, setOpen] = useState(false);
  const [rating, setRating] = useState<TRating | null>(null);
  const [comment, setComment] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  function reset() {
    setRating(null);
    setComment('');
    setSent(false);
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!rating) return;
    setSending(true);
    try {
      await call('POST /api/feedback', { body: { rating, comment } });
      setSent(true);
      timer.current = setTimeout(() => {
        setOpen(false);
        reset();
      }, FEEDBACK_CLOSE_DELAY);
    } catch (error) {
      handleError(error);
    } finally {
      setSending(false);
    }
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
            <form onSubmit={(event) => void submit(event)} className="grid gap-3">
              <div role="radiogroup" aria-label={t('feedback.rating')} className="flex justify-between gap-2">
                {RATINGS.map(({ value, icon: Icon }) => (
                  <button
                    key={value}
                    type="button"
                    role="radio"
                    aria-checked={rating === value}
                    aria-label={t(`feedback.${value}`)}
                    onClick={() => setRating(value)}
                    className={cn(
                      'flex flex-1 justify-center rounded-md border p-2 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                      rating === value && 'border-primary bg-accent',
                    )}
                  >
                    <Icon className="size-6" aria-hidden="true" />
                  </button>
                ))}
              </div>
              <label className="grid gap-1 text-sm">
                {t('feedback.comment')}
                <textarea
                  value={comment}
                  onChange={(event) => setComment(event.target.value)}
                  rows={3}
                  className="rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                />
              </label>
              <Button type="submit" loading={sending} disabled={!rating}>
                {t('feedback.send')}
              </Button>
            </form>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
