import * as React from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Info, Loader2 } from 'lucide-react';
import { ROUTING_LIMITS } from '@air/shared/schemas/aiendpoint';
import { Breadcrumb } from '@/components/layout/breadcrumb';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useErrorHandler } from '@/lib/error-handler';
import { refreshDashboard } from '@/features/dashboard/dashboard-data';
import { useSession } from '@/lib/session';
import { EndpointOverviewForm } from '../components/endpoint-overview-form';
import { EndpointPrice } from '../components/endpoint-price';
import { EndpointRouting } from '../components/endpoint-routing';
import { EndpointSettings } from '../components/endpoint-settings';
import { EndpointProtocols } from '../components/endpoint-protocols';
import { EndpointTracing } from '../components/endpoint-tracing';
import { EndpointSwitches } from '../components/endpoint-switches';
import { Playground } from '../components/playground';
import { UpstreamHealth, upstreamHealthKey } from '../components/upstream-health';
import { McpTools } from '../components/mcp-tools';
import { RouteTypeBadge } from '../components/endpoint-badges';
import type { TAiEndpoint } from '../endpoint-types';
import { endpointQuery, MY_ENDPOINTS_QUERY, SHARED_ENDPOINTS_QUERY } from '../registry-api';

/** /aiendpoints/{id}: Overview (switches, name, description) and Settings (upstream settings). */
export default function EndpointPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('registry');
  const { signedIn } = useSession();
  const handleError = useErrorHandler();
  const queryClient = useQueryClient();
  const query = endpointQuery(id);
  const { queryKey } = query;
  const endpoint = useQuery(query);
  React.useEffect(() => {
    if (endpoint.error) handleError(endpoint.error);
  }, [endpoint.error, handleError]);

  const data = endpoint.data;
  if (!data) {
    return endpoint.isPending ? (
      <p role="status" className="inline-flex items-center gap-2 text-muted-foreground">
        <Loader2 className="size-4 animate-spin" aria-hidden="true" />
        {t('common:loading')}
      </p>
    ) : null;
  }

  // Another account's shared endpoint opens read-only (the server says so with editable: false).
  const readOnly = data.editable === false;
  function onSaved(patch: Partial<TAiEndpoint>) {
    queryClient.setQueryData<TAiEndpoint | null>(queryKey, (old) => (old ? { ...old, ...patch } : old));
    void queryClient.invalidateQueries({ queryKey: MY_ENDPOINTS_QUERY });
    void queryClient.invalidateQueries({ queryKey: SHARED_ENDPOINTS_QUERY });
    // Active, name and upstream show on the dashboard too (health, the snippets' route).
    void refreshDashboard(queryClient);
    // And on the upstream card: saved routing may add, drop or reweight upstreams.
    void queryClient.invalidateQueries({ queryKey: upstreamHealthKey(id) });
  }

  return (
    <section className="space-y-4">
      <Breadcrumb
        items={[
          { name: t('detail.registry'), url: readOnly ? '/registry?tab=shared' : '/registry' },
          { name: data.route_name, url: `/aiendpoints/${data.id}` },
        ]}
      />
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-semibold tracking-tight break-all">{data.route_name}</h1>
        <RouteTypeBadge type={data.route_type} />
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {data.name !== data.route_name && (
          <>
            <dt className="text-muted-foreground">{t('detail.name')}</dt>
            <dd className="break-all">{data.name}</dd>
          </>
        )}
        {data.route_endpoint && (
          <>
            <dt className="text-muted-foreground">{t('detail.routeEndpoint')}</dt>
            <dd className="break-all">{data.route_endpoint}</dd>
          </>
        )}
        {readOnly && (
          <>
            <dt className="text-muted-foreground">{t('detail.provider')}</dt>
            <dd>{data.account_orgDisplayName}</dd>
          </>
        )}
      </dl>
      {readOnly && (
        <p role="note" className="flex items-start gap-2 rounded-md border bg-muted/50 p-3 text-sm">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {t('detail.readonly', { org: data.account_orgDisplayName })}
        </p>
      )}
      <Tabs defaultValue="overview">
        <TabsList>
          <TabsTrigger value="overview">{t('detail.overview')}</TabsTrigger>
          <TabsTrigger value="settings">{t('detail.settings')}</TabsTrigger>
          <TabsTrigger value="try">{t('detail.tryIt')}</TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="space-y-6">
          <EndpointSwitches endpoint={data} signedIn={signedIn} readOnly={readOnly} onSaved={onSaved} />
          <EndpointOverviewForm key={data.id} endpoint={data} readOnly={readOnly} onSaved={onSaved} />
          {!readOnly && data.protocol === 'mcp' && (
            <McpTools endpointId={data.id} disabledTools={data.disabled_tools ?? []} onSaved={onSaved} />
          )}
          {!readOnly && (
            <UpstreamHealth
              endpointId={data.id}
              cooldownS={data.config?.circuit?.cooldown_s ?? ROUTING_LIMITS.cooldownS.default}
            />
          )}
        </TabsContent>
        <TabsContent value="settings">
          {readOnly ? (
            <p className="text-sm text-muted-foreground">{t('settings.hidden')}</p>
          ) : (
            <div className="space-y-6">
              <EndpointSettings key={data.id} endpoint={data} onSaved={onSaved} />
              <EndpointRouting key={`routing-${data.id}`} endpoint={data} onSaved={onSaved} />
              <EndpointPrice key={`price-${data.id}`} endpoint={data} onSaved={onSaved} />
              {data.protocol !== 'mcp' && (
                <EndpointProtocols key={`protocols-${data.id}`} endpoint={data} onSaved={onSaved} />
              )}
              <EndpointTracing key={`tracing-${data.id}`} endpoint={data} onSaved={onSaved} />
            </div>
          )}
        </TabsContent>
        <TabsContent value="try">
          <Playground routeName={data.route_name} protocol={data.protocol} />
        </TabsContent>
      </Tabs>
    </section>
  );
}
