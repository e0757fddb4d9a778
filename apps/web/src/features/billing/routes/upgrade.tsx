import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { useApiQuery } from '@/features/account/lib/use-api-query';
import { AuthenticationDialog } from '../components/authentication-dialog';
import { PlanCheckout } from '../components/plan-checkout';
import { afterBillingChange } from '../lib/billing-queries';
import { usePayments } from '../lib/payments';
import { isPaid } from '../lib/plans';

/** Spec section 9: after an upgrade the console moves on to the dashboard after 2,500 ms. */
export const UPGRADE_REDIRECT_MS = 2500;

/**
 * /account/upgrade?plan= (where a 402 sends the user): the paid plans with the asked one chosen,
 * the card when none is on file, pay (POST /api/account/upgrade), then /dashboard after 2,500 ms.
 */
export default function UpgradePage() {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const payments = usePayments();
  const plans = useApiQuery('GET /api/account/plans');
  const card = useApiQuery('GET /api/account/card');
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // The plans are rendered as a transition (React yields to the browser between components), not
  // in the last answer's one blocking task or the page's first render; until then the spinner
  // stays (decision 064).
  const waiting = useDeferredValue(
    plans.isPending || card.isPending || (!payments.ready && !payments.failed),
    true,
  );
  const paidPlans = (plans.data?.plans ?? []).filter(isPaid);
  const asked = params.get('plan');

  return (
    <>
      <PageHeading />
      {done ? (
        <div role="status" className="flex items-center gap-2 rounded-lg border p-4 text-sm">
          <CheckCircle2 className="size-5 text-green-600" aria-hidden="true" />
          {t('upgrade.done')}
        </div>
      ) : waiting ? (
        <div role="status" className="flex justify-center py-8">
          <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label={t('common:loading')} />
        </div>
      ) : (
        <div className="max-w-2xl">
          <p className="mb-4 text-sm text-muted-foreground">{t('upgrade.intro')}</p>
          <PlanCheckout
            plans={paidPlans}
            active={plans.data?.active ?? null}
            initial={asked}
            hasCard={Boolean(card.data)}
            call="POST /api/account/upgrade"
            submitText={t('upgrade.submit')}
            onDone={async (response) => {
              await afterBillingChange(queryClient, response.data);
              setDone(true);
              timer.current = setTimeout(() => void navigate('/dashboard'), UPGRADE_REDIRECT_MS);
            }}
          />
        </div>
      )}
      <AuthenticationDialog />
    </>
  );
}
