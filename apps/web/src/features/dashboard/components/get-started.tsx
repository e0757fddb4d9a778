import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, Circle } from 'lucide-react';
import type { TAccountOverview } from '@air/shared/schemas/overview';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { cn } from '@/lib/utils';

// Underlined: a link inside a sentence must not be told apart by colour alone.
const LINK = 'font-medium text-primary underline underline-offset-4';

function Step({ done, title, children }: { done: boolean; title: string; children: ReactNode }) {
  const { t } = useTranslation('dashboard');
  const Icon = done ? CheckCircle2 : Circle;
  return (
    <li className="flex gap-3" data-done={done}>
      <Icon
        aria-hidden="true"
        className={cn(
          'mt-0.5 size-5 shrink-0',
          done ? 'text-green-600 dark:text-green-400' : 'text-muted-foreground',
        )}
      />
      <div className="min-w-0 flex-1 space-y-1">
        <p className={cn('font-medium', done && 'text-muted-foreground line-through')}>
          {title}
          <span className="sr-only"> ({done ? t('started.done') : t('started.todo')})</span>
        </p>
        {!done && <div className="space-y-3 text-sm text-muted-foreground">{children}</div>}
      </div>
    </li>
  );
}

/**
 * The "Get started" checklist: a key, an endpoint, a call that succeeded. The dashboard shows it
 * until a key exists and a call has succeeded; `canCreateKey` says whether the member may create
 * keys (developers and owners), so nobody is sent to a page they cannot use.
 */
export function GetStarted({
  started,
  canCreateKey,
  examples,
}: {
  started: TAccountOverview['started'];
  canCreateKey: boolean;
  examples: ReactNode;
}) {
  const { t } = useTranslation('dashboard');
  const done = [started.key, started.endpoint, started.call].filter(Boolean).length;
  return (
    <Card className="min-w-0" data-testid="get-started">
      <CardHeader>
        <h2 className="text-lg leading-none font-semibold">{t('started.title')}</h2>
        <CardDescription>{t('started.progress', { done, total: 3 })}</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="space-y-4">
          <Step done={started.key} title={t('started.key.title')}>
            {canCreateKey ? (
              <p>
                {t('started.key.text')}{' '}
                <Link className={LINK} to="/account/apikeys/create">
                  {t('started.key.action')}
                </Link>
              </p>
            ) : (
              <p>{t('started.key.ask')}</p>
            )}
          </Step>
          <Step done={started.endpoint} title={t('started.endpoint.title')}>
            <p>
              {t('started.endpoint.text')}{' '}
              <Link className={LINK} to="/registry">
                {t('started.endpoint.action')}
              </Link>
            </p>
          </Step>
          <Step done={started.call} title={t('started.call.title')}>
            <p>{t('started.call.text')}</p>
            <div className="text-foreground">{examples}</div>
          </Step>
        </ol>
      </CardContent>
    </Card>
  );
}
