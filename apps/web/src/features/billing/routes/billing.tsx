import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useApiQuery } from '@/features/account/lib/use-api-query';
import { AuthenticationDialog } from '../components/authentication-dialog';
import { AuthorizePayment } from '../components/authorize-payment';
import { BillingTotals } from '../components/billing-totals';
import { CardTab } from '../components/card-tab';
import { InvoicesTab } from '../components/invoices-tab';
import { PlanCheckout } from '../components/plan-checkout';
import { SubscriptionBanner } from '../components/subscription-banner';
import { afterBillingChange } from '../lib/billing-queries';
import { usePayments } from '../lib/payments';
import { FREE_PLAN } from '../lib/plans';

/**
 * /account/billing (owner): the subscription banner, usage and seat totals, and the tabs Plan,
 * Card and Invoices. On the free plan Card shows too, as a card opens priced marketplace routes,
 * and Invoices once there is one (a month of priced calls), decision 032. A lapsed subscription
 * lands here (route guard), repairs its card or picks a new plan.
 */
export default function BillingPage() {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const payments = usePayments();
  const plans = useApiQuery('GET /api/account/plans');
  const subscription = useApiQuery('GET /api/account/subscription');
  const card = useApiQuery('GET /api/account/card');
  const invoices = useApiQuery('GET /api/account/invoice');
  const usage = useApiQuery('GET /api/account/usage');

  const loading =
    plans.isPending || subscription.isPending || card.isPending || invoices.isPending || usage.isPending;
  const sub = subscription.data ?? null;
  const active = plans.data?.active ?? sub?.plan ?? null;
  const paid = Boolean(active && active !== FREE_PLAN);
  // The newest page of invoices (50: four years of monthly ones), newest first; the tab pages on.
  const firstInvoices = invoices.data ?? { items: [], next_cursor: null };
  const hasInvoices = paid || firstInvoices.items.length > 0;
  const [tab, setTab] = useState('plan');
  // The banner's "Update card" opens the Card tab and puts the focus on the new card's first input.
  const cardTab = useRef<HTMLDivElement>(null);
  const [cardAsked, setCardAsked] = useState(0);
  useEffect(() => {
    if (cardAsked === 0) return;
    // The card field mounts a moment after its tab: wait for the local field's first input (or
    // Stripe's card frame), up to a second. Focusing it scrolls it into view.
    let tries = 0;
    const timer = setInterval(() => {
      const target = cardTab.current?.querySelector<HTMLElement>('input:not([type=hidden]), iframe');
      if (target) target.focus();
      if (target || ++tries > 20) clearInterval(timer);
    }, 50);
    return () => clearInterval(timer);
  }, [cardAsked]);

  return (
    <>
      <PageHeading />
      {loading || (!payments.ready && !payments.failed) ? (
        <div role="status" className="flex justify-center py-8">
          <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label={t('common:loading')} />
        </div>
      ) : (
        <>
          <SubscriptionBanner
            status={sub?.status}
            nextAttemptAt={sub?.next_attempt_at}
            onUpdateCard={() => {
              setTab('card');
              setCardAsked((n) => n + 1);
            }}
            onChoosePlan={() => setTab('plan')}
          >
            {sub?.status === 'requires_action' && payments.ready && <AuthorizePayment />}
          </SubscriptionBanner>
          <BillingTotals subscription={sub} usage={usage.data ?? []} />
          <Tabs value={tab} onValueChange={setTab}>
            <TabsList aria-label={t('tabs.label')}>
              <TabsTrigger value="plan">{t('tabs.plan')}</TabsTrigger>
              <TabsTrigger value="card">{t('tabs.card')}</TabsTrigger>
              {hasInvoices && <TabsTrigger value="invoices">{t('tabs.invoices')}</TabsTrigger>}
            </TabsList>
            <TabsContent value="plan" className="mt-4 max-w-2xl">
              <PlanCheckout
                key={`${active}-${plans.dataUpdatedAt}`}
                plans={plans.data?.plans ?? []}
                active={active}
                hasCard={Boolean(card.data)}
                periodEnd={sub?.current_period_end}
                call="PATCH /api/account/plan"
                submitText={t('plans.change')}
                onDone={(response) => afterBillingChange(queryClient, response.data)}
              />
            </TabsContent>
            <TabsContent value="card" className="mt-4" ref={cardTab}>
              <CardTab card={card.data ?? null} free={!paid} />
            </TabsContent>
            {hasInvoices && (
              <TabsContent value="invoices" className="mt-4">
                <InvoicesTab firstPage={firstInvoices} />
              </TabsContent>
            )}
          </Tabs>
        </>
      )}
      <AuthenticationDialog />
    </>
  );
}
