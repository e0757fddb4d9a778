import { useNavigate } from 'react-router';
import type { TUserSubscription } from '@air/shared/schemas/user';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { withQueryProvider } from '@/app/query-provider';
import { useApiQuery } from '@/features/account/lib/use-api-query';
import { AuthenticationDialog } from '@/features/billing/components/authentication-dialog';
import { PlanCheckout } from '@/features/billing/components/plan-checkout';
import { afterBillingChange } from '@/features/billing/lib/billing-queries';
import { usePayments } from '@/features/billing/lib/payments';
import { getSession, updateUser } from '@/lib/session';
import { takeReturnAfterSignup } from '@/lib/return-after-signup';

/**
 * /signup/plan: the owner picks a plan right after sign-up. Free starts at once; a paid plan takes
 * a card and is charged now (with the 3-D Secure step when the card asks for it), all through
 * POST /api/account/plan. Then /dashboard when onboarded, else /welcome (spec section 4).
 */
function SignupPlanPage() {
  const { t } = useTranslation(['signup', 'billing']);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const payments = usePayments();
  const query = useApiQuery('GET /api/account/plans');
  const plans = query.data?.plans ?? [];

  return (
    <>
      <PageHeading className="mb-2" />
      <p className="mb-6 text-sm text-muted-foreground">{t('plan.intro')}</p>
      {query.isPending || (!payments.ready && !payments.failed) ? (
        <div role="status" className="flex justify-center py-8">
          <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label={t('common:loading')} />
        </div>
      ) : plans.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('plan.none')}</p>
      ) : (
        <PlanCheckout
          plans={plans}
          active={query.data?.active ?? null}
          hasCard={false}
          call="POST /api/account/plan"
          submitText={t('plan.submit')}
          silent
          onDone={async (response, plan) => {
            // The new plan's subscription is active unless the answer says otherwise; the
            // refresh below brings its full terms.
            const subscription = getSession().user?.subscription;
            updateUser({
              plan,
              subscription: { ...(subscription ?? ({} as TUserSubscription)), status: 'active' },
            });
            await afterBillingChange(queryClient, response.data);
            // Back to the page the visitor signed up from (an endpoint's "Sign up to call it"), if any.
            void navigate(
              takeReturnAfterSignup() ?? (getSession().user?.onboarded ? '/dashboard' : '/welcome'),
            );
          }}
        />
      )}
      <AuthenticationDialog />
    </>
  );
}

// The auth layout carries no data cache (sign-in budget): this page brings its own.
export default withQueryProvider(SignupPlanPage);
