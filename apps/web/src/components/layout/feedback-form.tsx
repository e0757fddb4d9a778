import { useEffect, type MutableRefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Frown, Meh, Smile } from 'lucide-react';
import { cn } from '@/lib/utils';
import { useErrorHandler } from '@/lib/error-handler';
import { errorText } from '@/components/form/error-text';
import type { TFormFields } from '@/components/form/types';
import { useSchemaForm, type TFieldError } from '@/components/form/use-form';
import { useFormSubmit } from '@/components/form/use-submit';
import { Button } from '@/components/ui/button';

const RATINGS = [
  { value: 'positive', icon: Smile },
  { value: 'neutral', icon: Meh },
  { value: 'negative', icon: Frown },
] as const;

/** What the panel holds while it is closed: the rating picked and the comment typed so far. */
export interface TFeedbackDraft {
  rating: string;
  comment: string;
}

const loadFeedbackSchema = () => import('@air/shared/schemas/feedback').then((m) => m.ZFeedback);

/**
 * The feedback panel's form, on the one form engine with the server's schema (ZFeedback) and the
 * typed call `POST /api/feedback`. It starts from `draft` and leaves what it holds there when the
 * panel closes; `onSent` once the server took it.
 */
export function FeedbackForm({
  draft,
  onSent,
}: {
  draft: MutableRefObject<TFeedbackDraft>;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const handleError = useErrorHandler();
  const fields: TFormFields = {
    // Drawn as the row of faces below.
    rating: { type: 'radio', value: draft.current.rating },
    comment: { type: 'textarea', value: draft.current.comment },
  };
  const form = useSchemaForm(fields, loadFeedbackSchema);
  const submit = useFormSubmit(form, {
    fields,
    call: 'POST /api/feedback',
    onError: handleError,
    // The panel's own thanks is the answer: no toast of the server's message.
    successMessage: '',
    onSuccess: onSent,
  });
  useEffect(
    () => () => {
      const values = form.getValues();
      draft.current = { rating: String(values.rating ?? ''), comment: String(values.comment ?? '') };
    },
    [draft, form],
  );
  const rating = form.watch('rating');
  const sending = form.formState.isSubmitting;
  const commentError = errorText(
    t,
    form.formState.errors.comment as TFieldError | undefined,
    t('feedback.comment'),
  );

  return (
    <form onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-3">
      <div role="radiogroup" aria-label={t('feedback.rating')} className="flex justify-between gap-2">
        {RATINGS.map(({ value, icon: Icon }) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={rating === value}
            aria-label={t(`feedback.${value}`)}
            onClick={() => form.setValue('rating', value, { shouldDirty: true, shouldValidate: true })}
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
  );
}
