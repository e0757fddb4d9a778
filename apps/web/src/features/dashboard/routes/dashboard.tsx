import { memo, useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { TAccountOverview } from '@air/shared/schemas/overview';
import { hasPermission } from '@air/shared/permissions';
import { PageHeading } from '@/components/layout/page-heading';
import { LimitsReached } from '@/features/usage/components/limits-reached';
import { QuotaCard } from '@/features/usage/components/quota-card';
import { useSession } from '@/lib/session';
import { EndpointHealth } from '../components/endpoint-health';
import { GetStarted } from '../components/get-started';
import { LatestCalls } from '../components/latest-calls';
import { QuickStart } from '../components/quick-start';
import { StatTiles } from '../components/stat-tiles';
import { TopRoutes } from '../components/top-routes';
import { WelcomeNote } from '../components/welcome-note';
import { mayReadKeys, quickstartKeyQuery, quickstartRouteQuery } from '../dashboard-data';
import { overviewQuery } from '../overview-api';
import { useSnippetKey } from '../snippet-key';
import { PLACEHOLDER_ROUTE } from '@air/shared/snippets';

function OverviewSkeleton() {
  const { t } = useTranslation('dashboard');
  return (
    <div role="status" aria-live="polite" className="space-y-6" data-testid="overview-loading">
      <span className="sr-only">{t('common:loading')}</span>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-28 animate-pulse rounded-lg border bg-muted" />
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-48 animate-pulse rounded-lg border bg-muted" />
        ))}
      </div>
    </div>
  );
}

/**
 * The overview's figures. Memoised: the key's and the route's answers, arriving after the overview,
 * re-render the page (its snippets) but not these.
 */
const OverviewFigures = memo(function OverviewFigures({
  data,
  canUpgrade,
}: {
  data: TAccountOverview;
  canUpgrade: boolean;
}) {
  const { t, i18n } = useTranslation('dashboard');
  return (
    <section aria-labelledby="overview-title" className="space-y-6">
      <h2 id="overview-title" className="sr-only">
        {t('overview.title')}
      </h2>
      <StatTiles overview={data} />
      <div className="grid gap-6 lg:grid-cols-3">
        <QuotaCard quota={data.quota} locale={i18n.language} canUpgrade={canUpgrade} />
        <TopRoutes routes={data.top_routes} />
        <EndpointHealth endpoints={data.endpoints} count={data.endpoint_count} />
      </div>
      <LatestCalls calls={data.latest_calls} />
    </section>
  );
});

/**
 * /dashboard: how things are (calls today and this period with their trend, error rate, median
 * latency, quota, top routes, endpoint health, latest calls) from `GET /api/account/overview`, and
 * the "Get started" checklist until a key exists and a call has succeeded. Only calls the member
 * may make are made: the key for the examples is read only by those who may read keys.
 */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { user } = useSession();
  const canReadKeys = mayReadKeys(user?.permission);
  const overview = useQuery(overviewQuery);
  const key = useQuery({ ...quickstartKeyQuery, enabled: canReadKeys });
  const route = useQuery(quickstartRouteQuery);

  // The key shows masked; copying a snippet copies it with the real key.
  const snippetKey = useSnippetKey(canReadKeys ? key.data : null);

  // The overview's answer is rendered as a transition (React yields to the browser between
  // components) rather than in the store update's one blocking task, or in the page's first render
  // when it was in already (null at first): on a throttled phone that render was the page's
  // longest task (Lighthouse total blocking time, decision 064). Until it is done the skeleton
  // stays, as while the answer was on its way.
  const data = useDeferredValue(overview.data, null);
  const examples = <QuickStart apiKey={snippetKey} routeName={route.data ?? PLACEHOLDER_ROUTE} />;
  const started = data?.started;
  const checklistOpen = started ? !(started.key && started.call) : false;

  return (
    <section className="space-y-6">
      <PageHeading />
      <WelcomeNote />
      <LimitsReached />
      {/*
        While the overview loads, one placeholder stands where the checklist and the overview will
        be; they replace it together. The checklist (shown only once the overview says what is
        done) used to appear above an overview already on screen and push it down: a layout shift
        of 0.2-0.6 on a first run (issue 38, Lighthouse /dashboard desktop).
      */}
      {!data ? (
        overview.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {t('overview.unavailable')}
          </p>
        ) : (
          <OverviewSkeleton />
        )
      ) : (
        <>
          {started && checklistOpen && (
            <GetStarted
              started={started}
              canCreateKey={canReadKeys}
              examples={started.call ? null : examples}
            />
          )}
          <OverviewFigures data={data} canUpgrade={hasPermission(user?.permission, 'owner')} />
        </>
      )}
      {started && (!checklistOpen || started.call) && (
        <details className="group rounded-lg border bg-card p-4 shadow-sm" data-testid="quick-start">
          <summary className="cursor-pointer font-medium">{t('quickstart.folded')}</summary>
          <div className="mt-4">{examples}</div>
        </details>
      )}
    </section>
  );
}
