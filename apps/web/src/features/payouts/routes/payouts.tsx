import * as React from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { TPayouts } from '@air/shared/schemas/payout';
import { PageHeading } from '@/components/layout/page-heading';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { LoadingStatus } from '@/components/ui/loading-status';
import { useErrorHandler } from '@/lib/error-handler';
import { formatAmount } from '@/features/earnings/earnings-figures';
import { payoutsQuery } from '../payouts-api';
import { PayoutAccountCard } from '../components/payout-account-card';
import { PayoutList } from '../components/payout-list';

/**
 * /account/payouts (owner): what the marketplace owes this account and has paid it (contract 5b).
 * The four figures (balance, accrued and not yet invoiced, pending, paid), where payouts go (a bank
 * account, or Stripe Connect onboarding), and each month's payout with its statement.
 */
export default function PayoutsPage() {
  const { t } = useTranslation('payouts');
  const handleError = useErrorHandler();
  const payouts = useQuery(payoutsQuery);
  React.useEffect(() => {
    if (payouts.error) handleError(payouts.error);
  }, [payouts.error, handleError]);
  const data = payouts.data;
  return (
    <div className="space-y-6">
      <PageHeading />
      {payouts.isPending ? (
        <LoadingStatus className="inline-flex" label={t('loading')} />
      ) : payouts.isError || !data ? (
        <div role="alert">
          <BlankSlate
            title={t('error.title')}
            text={t('error.text')}
            action={
              <Button variant="outline" onClick={() => void payouts.refetch()}>
                {t('error.retry')}
              </Button>
            }
          />
        </div>
      ) : (
        <>
          <Figures data={data} />
          <PayoutAccountCard data={data} />
          <section aria-labelledby="payouts-list" className="space-y-3">
            <h2 id="payouts-list" className="text-lg font-semibold">
              {t('list.title')}
            </h2>
            {data.payouts.length === 0 ? (
              <BlankSlate
                title={t('list.emptyTitle')}
                text={t('list.emptyText', { minimum: formatAmount(data.minimum, data.currency, 'en') })}
                action={
                  <Button variant="outline" asChild>
                    <Link to="/account/earnings">{t('list.toEarnings')}</Link>
                  </Button>
                }
              />
            ) : (
              <PayoutList data={data} />
            )}
          </section>
        </>
      )}
    </div>
  );
}

function Figures({ data }: { data: TPayouts }) {
  const { t, i18n } = useTranslation('payouts');
  const money = (minor: number) => formatAmount(minor, data.currency, i18n.language);
  const figures: { key: string; value: number; note: string }[] = [
    {
      key: 'balance',
      value: data.balance,
      note: t('figures.balanceNote', { minimum: money(data.minimum) }),
    },
    { key: 'accrued', value: data.accrued, note: t('figures.accruedNote') },
    { key: 'pending', value: data.pending, note: t('figures.pendingNote') },
    { key: 'paid', value: data.paid, note: t('figures.paidNote') },
  ];
  return (
    <section aria-labelledby="payouts-figures" className="space-y-2">
      <h2 id="payouts-figures" className="sr-only">
        {t('figures.title')}
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="payout-figures">
        {figures.map((figure) => (
          <div key={figure.key} className="rounded-md border p-3" data-figure={figure.key}>
            <dt className="text-xs font-medium text-muted-foreground">{t(`figures.${figure.key}`)}</dt>
            <dd className="text-lg font-semibold tabular-nums">{money(figure.value)}</dd>
            <dd className="mt-1 text-xs text-muted-foreground">{figure.note}</dd>
          </div>
        ))}
      </dl>
      {data.uncollected > 0 && (
        <p className="text-sm text-muted-foreground">
          {t('figures.uncollected', { amount: money(data.uncollected) })}
        </p>
      )}
    </section>
  );
}
