import type { MutableRefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { X } from 'lucide-react';
import { Popover } from 'radix-ui';
import { FeedbackButton } from './overlay-triggers';
// The form and its engine come with the panel (decision 064): it opens with the form in it.
import { FeedbackForm, type TFeedbackDraft } from './feedback-form';

/**
 * The feedback panel (Radix Popover) by the floating heart. Loaded on first use by the shell's
 * FeedbackWidget (feedback-widget.tsx), which keeps the open state, the draft and the thanks.
 */
export function FeedbackPopover({
  open,
  onOpenChange,
  sent,
  draft,
  onSent,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  sent: boolean;
  draft: MutableRefObject<TFeedbackDraft>;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>
        <FeedbackButton />
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
            <FeedbackForm draft={draft} onSent={onSent} />
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
