import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { useOnboardingSteps } from '@/features/onboarding/components/onboarding-steps';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { updateUser, useSession } from '@/lib/session';
import { cn } from '@/lib/utils';

/** The 1-based step number from `?page=`; anything unreadable is the first step. */
function pageNumber(raw: string | null): number {
  const n = Number(raw ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * /welcome: one onboarding step per `?page=` (1-based), Back/Next between them, a skip action, and
 * "Nothing to show" past the last step. Finishing or skipping marks the user onboarded
 * (PATCH /api/user { onboarded: true }) and goes to the dashboard.
 */
export default function WelcomePage() {
  const { t } = useTranslation('onboarding');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const { user } = useSession();
  const [params] = useSearchParams();
  const steps = useOnboardingSteps(user);
  const page = pageNumber(params.get('page'));
  const step = steps[page - 1];
  const last = page === steps.length;
  const [finishing, setFinishing] = useState(false);

  async function finish() {
    setFinishing(true);
    try {
      await call('PATCH /api/user', { body: { onboarded: true } });
      updateUser({ onboarded: true });
      void navigate('/dashboard');
    } catch (error) {
      handleError(error);
      setFinishing(false);
    }
  }

  const finishButton = (
    <Button onClick={() => void finish()} loading={finishing}>
      {t('finish')}
    </Button>
  );

  if (!step) {
    return <BlankSlate title={t('nothing')} text={t('nothingText')} action={finishButton} />;
  }

  return (
    <section aria-labelledby="onboarding-step-title" className="space-y-6">
      <div className="flex items-center justify-between gap-4">
        <p className="text-sm text-muted-foreground">
          {t('progress', { current: page, total: steps.length })}
        </p>
        <ol className="flex gap-1.5" aria-hidden="true">
          {steps.map((s, index) => (
            <li
              key={s.id}
              className={cn('h-1.5 w-6 rounded-full', index < page ? 'bg-primary' : 'bg-muted-foreground/25')}
            />
          ))}
        </ol>
      </div>
      <h1 id="onboarding-step-title" className="text-2xl font-semibold tracking-tight">
        {step.title}
      </h1>
      {step.content}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t pt-6">
        <Button variant="ghost" onClick={() => void finish()} disabled={finishing}>
          {t('skip')}
        </Button>
        <div className="flex gap-2">
          {page > 1 && (
            <Button variant="outline" asChild>
              <Link to={`/welcome?page=${page - 1}`}>{t('back')}</Link>
            </Button>
          )}
          {last ? (
            finishButton
          ) : (
            <Button asChild>
              <Link to={`/welcome?page=${page + 1}`}>{t('next')}</Link>
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
