import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Frown, Heart, Meh, Smile, X } from 'lucide-react';
import { Popover } from 'radix-ui';
import { cn } from '@/lib/utils';
import { useErrorHandler } from '@/lib/error-handler';
import { errorText } from '@/components/form/error-text';
import type { TFormFields } from '@/components/form/types';
import { useSchemaForm, type TFieldError } from '@/components/form/use-form';
import { useFormSubmit } from '@/components/form/use-submit';
import { Button } from '@/components/ui/button';

export const FEEDBACK_CLOSE_DELAY = 3_000;
const RATINGS = [
  { value: 'positive', icon: Smile },
  { value: 'neutral', icon: Meh },
  { value: 'negative', icon: Frown },
] as const;

// The request schema loads with the widget, after the shell's first paint (zod stays out of it).
const loadFeedbackSchema = () => import('@air/shared/schemas/feedback').then((m) => m.ZFeedback);

const FIELDS: TFormFields = {
  // Drawn as the row of faces below.
  rating: { type: 'radio' },
  comment: { type: 'textarea' },
};

/**
 * Floating heart: rate the console and leave a comment, on the one form engine with the server's
 * schema (ZFeedback) and the typed call `POST /api/feedback`; the panel closes 3 s after sending.
 */
export function FeedbackWidget() {
  const { t } = useTranslation();
  const handleError = useErrorHandler();
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const form = useSchemaForm(FIELDS, loadFeedbackSchema);
  const submit = useFormSubmit(form, {
    fields: FIELDS,
    call: 'POST /api/feedback',
    onError: handleError,
    // The panel's own thanks is the answer: no toast of the server's message.
    successMessage: '',
    onSuccess: () => {
      setSent(true);
      timer.current = setTimeout(() => {
        setOpen(false);
        form.reset();
        setSent(false);
      }, FEEDBACK_CLOSE_DELAY);
    },
  });
  const rating = form.watch('rating');
  const sending = form.formState.isSubmitting;
  const commentError = errorText(
    t,
    form.formState.errors.comment as TFieldError | undefined,
    t('feedback.comment'),
  );

  useEffect(() => () => clearTimeout(timer.current), []);

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
            <form onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-3">
              <div role="radiogroup" aria-label={t('feedback.rating')} className="flex justify-between gap-2">
                {RATINGS.map(({ value, icon: Icon }) => (
                  <button
                    key={value}
                    type="button"
                    role="radio"
                    aria-checked={rating === value}
                    aria-label={t(`feedback.${value}`)}
                    onClick={() =>
                      form.setValue('rating', value, { shouldDirty: true, shouldValidate: true })
                    }
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
                  rows={3}
                  aria-invalid={commentError ? true : undefined}
                  aria-describedby={commentError ? 'feedback-comment-error' : undefined}
                  className="rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  {...form.register('comment')}
                />
              </label>
              {commentError && (
                <p id="feedback-comment-error" className="text-sm text-destructive">
                  {commentError}
                </p>
              )}
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
