import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { TPlanPreview } from '@air/shared/schemas/billing';
import { call } from '@/lib/api';
import { formatMoney } from '../lib/money';
import { formatDay } from '@/lib/format-date';

/** The preview's cache key; billing writes drop every plan's (billing-queries.ts). */
export const PREVIEW_CALL = 'GET /api/account/plan/preview';

/**
 * What moving to `plan` costs, before the button: seats, the prorated difference, the amount due
 * now (or the credit) and what each period costs then, as the server computes them with the plan
 * change's own arithmetic. A preview that cannot be had hides itself: the change still works and
 * its own answer says what went wrong.
 */
export function PlanPreview({ plan }: { plan: string }) {
  const { t, i18n } = useTranslation('billing');
  const preview = useQuery({
    queryKey: [PREVIEW_CALL, plan],
    queryFn: async ({ signal }) => (await call(PREVIEW_CALL, { query: { plan }, signal })).data ?? null,
    retry: false,
  });
  if (preview.isPending) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        {t('preview.loading')}
      </p>
    );
  }
  if (!preview.data) return null;
  return <PreviewFigures preview={preview.data} locale={i18n.language} />;
}

function PreviewFigures({ preview, locale }: { preview: TPlanPreview; locale: string }) {
  const { t } = useTranslation('billing');
  const money = (minor: number) => formatMoney(minor, preview.currency_symbol, locale);
  const interval = t(`plans.interval.${preview.interval}`, { defaultValue: preview.interval });
  const periodEnd = preview.period_end ? formatDay(preview.period_end, locale) : null;
  // Moving to free at the period's end: the form's warning above says so, with the date.
  if (preview.mode === 'free_at_period_end') return null;
  if (preview.mode === 'keep' || preview.mode === 'free_now') {
    return (
      <p className="text-sm text-muted-foreground" data-preview={preview.mode}>
        {t(preview.mode === 'keep' ? 'preview.keep' : 'preview.freeNow')}
      </p>
    );
  }
  const rows: [string, string, string][] = [
    [
      'seats',
      t('preview.seats'),
      t('preview.seatLine', { seats: preview.seats, price: money(preview.seat_price) }),
    ],
  ];
  if (preview.mode === 'prorate') {
    rows.push([
      'proration',
      periodEnd ? t('preview.proration', { date: periodEnd }) : t('preview.prorationNoDate'),
      money(preview.proration),
    ]);
  }
  if (preview.credit > 0) rows.push(['credit', t('preview.credit'), money(preview.credit)]);
  rows.push(['due', t('preview.dueNow'), money(preview.amount_due)]);
  return (
    <section
      aria-label={t('preview.label')}
      className="rounded-lg border bg-muted/40 p-4 text-sm"
      data-preview={preview.mode}
    >
      <dl className="grid gap-2">
        {rows.map(([key, label, value]) => (
          <div
            key={key}
            data-preview-row={key}
            className={
              key === 'due'
                ? 'flex justify-between gap-4 border-t pt-2 font-semibold'
                : 'flex justify-between gap-4'
            }
          >
            <dt>{label}</dt>
            <dd className="tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-muted-foreground">
        {t('preview.thenRenews', { amount: money(preview.renewal_amount), interval })}
      </p>
    </section>
  );
}
