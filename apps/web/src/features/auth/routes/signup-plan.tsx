import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Loader2 } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { withQueryProvider } from '@/app/query-provider';
import { useApiQuery } from '@/features/account/lib/use-api-query';
import { formatPrice, isChoosable, readPlans, type TPlanChoice } from '@/features/auth/lib/plans';
import { api } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { getSession, updateUser, type TSessionUser } from '@/lib/session';
import { cn } from '@/lib/utils';

/**
 * /signup/plan: the owner picks a plan right after sign-up. Every configured plan is listed; only
 * the free plan can be chosen until card billing lands, and the page says so. Choosing completes
 * with POST /api/account/plan, then /dashboard when onboarded, else /welcome (spec section 4).
 */
function SignupPlanPage() {
  const { t, i18n } = useTranslation('signup');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const query = useApiQuery<unknown>('/api/account/plans');
  const { plans, active } = readPlans(query.data);
  const [chosen, setChosen] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [saving, setSaving] = useState(false);
  const choosable = plans.filter(isChoosable);
  const selected = chosen ?? (active && choosable.some((p) => p.id === active) ? active : choosable[0]?.id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!selected) {
      setMissing(true);
      return;
    }
    setSaving(true);
    try {
      const res = await api.post<TSessionUser>('/api/account/plan', { plan: selected });
      const data = res.data && typeof res.data === 'object' ? res.data : {};
      // The free plan's subscription is active (the route guard sends any other status to billing).
      updateUser({ plan: selected, subscription: { status: 'active' }, ...data });
      await refreshUser();
      void navigate(getSession().user?.onboarded ? '/dashboard' : '/welcome');
    } catch (error) {
      handleError(error);
      setSaving(false);
    }
  }

  return (
    <>
      <PageHeading className="mb-2" />
      <p className="mb-6 text-sm text-muted-foreground">{t('plan.intro')}</p>
      {query.isPending ? (
        <div role="status" className="flex justify-center py-8">
          <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label={t('common:loading')} />
        </div>
      ) : plans.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('plan.none')}</p>
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
          <RadioGroup
            aria-label={t('plan.plans')}
            value={selected ?? ''}
            onValueChange={(value) => {
              setChosen(value);
              setMissing(false);
            }}
            className="gap-3"
          >
            {plans.map((plan) => (
              <PlanOption key={plan.id} plan={plan} locale={i18n.language} current={plan.id === active} />
            ))}
          </RadioGroup>
          {missing && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {t('plan.required')}
            </p>
          )}
          {plans.some((plan) => !isChoosable(plan)) && (
            <p className="text-sm text-muted-foreground">{t('plan.unavailableHint')}</p>
          )}
          <Button type="submit" className="w-full" loading={saving}>
            {t('plan.submit')}
          </Button>
        </form>
      )}
    </>
  );
}

/** Re-read the user from the server so plan and subscription are exactly what it decided. */
async function refreshUser() {
  try {
    const res = await api.get<{ authenticated?: boolean } & TSessionUser>('/api/auth');
    const { authenticated, ...user } = res.data ?? {};
    if (authenticated !== false && Object.keys(user).length > 0) updateUser(user);
  } catch {
    // The local update above already reflects the choice; the next auth check will refresh.
  }
}

function PlanOption({ plan, locale, current }: { plan: TPlanChoice; locale: string; current: boolean }) {
  const { t } = useTranslation('signup');
  const available = isChoosable(plan);
  const id = `plan-${plan.id}`;
  const interval = t(`plan.interval.${plan.interval}`, { defaultValue: plan.interval });
  const price = t(plan.perSeat ? 'plan.perSeat' : 'plan.perInterval', {
    price: formatPrice(plan, locale),
    interval,
  });
  return (
    <label
      htmlFor={id}
      data-plan={plan.id}
      className={cn(
        'flex items-start gap-3 rounded-lg border p-4 transition-colors',
        available ? 'cursor-pointer hover:bg-accent has-[[data-state=checked]]:border-primary' : 'opacity-70',
      )}
    >
      <RadioGroupItem id={id} value={plan.id} disabled={!available} className="mt-1" />
      <span className="grid flex-1 gap-1">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{plan.name}</span>
          {current && <Badge variant="green">{t('plan.current')}</Badge>}
          {!available && <Badge variant="orange">{t('plan.unavailable')}</Badge>}
        </span>
        <span className="text-sm">{price}</span>
        {(plan.quota !== undefined || plan.rateLimit !== undefined) && (
          <span className="text-xs text-muted-foreground">
            {[
              plan.quota !== undefined && t('plan.quota', { calls: plan.quota.toLocaleString(locale) }),
              plan.rateLimit !== undefined &&
                t('plan.rateLimit', { rate: plan.rateLimit.toLocaleString(locale) }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
        )}
      </span>
    </label>
  );
}

// The auth layout carries no data cache (sign-in budget): this page brings its own.
export default withQueryProvider(SignupPlanPage);
