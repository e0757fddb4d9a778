import * as React from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ApiError } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { useSession } from '@/lib/session';
import { fetchCatalogEndpoint } from '../catalog-api';
import { DailyChart } from '../components/daily-chart';
import { PriceLabel, ToolPrices } from '../components/price-label';
import { FiguresTable } from '../components/figures-table';
import { CallerReadiness } from '../components/caller-readiness';
import { ModelFigures } from '../components/model-figures';
import { catalogPath } from '../components/catalog-card';
import { Playground } from '@/features/registry/components/playground';
import { usePageMeta } from '../page-meta';
import { LoadingStatus } from '@/components/ui/loading-status';

/** The snippets a page may show: an MCP endpoint has a client configuration instead of the OpenAI SDK. */
const SNIPPETS = ['curl', 'node', 'python', 'openai', 'mcp_servers'] as const;

/** /marketplace/{provider}/{name}: one listed endpoint, its statistics, price and how to call it. */
export default function CatalogEndpointPage() {
  const { provider = '', name = '' } = useParams();
  const { t } = useTranslation('marketplace');
  const { signedIn } = useSession();
  const handleError = useErrorHandler();
  const endpoint = useQuery({
    queryKey: ['marketplace-endpoint', provider, name],
    queryFn: () => fetchCatalogEndpoint(provider, name),
    retry: false,
  });
  const notFound = endpoint.error instanceof ApiError && [400, 404].includes(endpoint.error.status);
  React.useEffect(() => {
    if (endpoint.error && !notFound) handleError(endpoint.error);
  }, [endpoint.error, notFound, handleError]);
  const data = endpoint.data;
  usePageMeta(data?.name, data?.description || t('endpoint.metaDescription', { route: data?.route_name }));

  const back = (
    <nav aria-label={t('endpoint.breadcrumb')} className="mb-2 text-sm">
      <Link to="/marketplace" className="text-muted-foreground underline-offset-2 hover:underline">
        {t('endpoint.back')}
      </Link>
    </nav>
  );
  if (!data) {
    return (
      <section>
        {back}
        {endpoint.isPending ? (
          <LoadingStatus className="inline-flex" label={t('endpoint.loading')} />
        ) : notFound ? (
          <BlankSlate title={t('endpoint.notFoundTitle')} text={t('endpoint.notFoundText')} />
        ) : null}
      </section>
    );
  }

  return (
    <section className="space-y-6">
      <div>
        {back}
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight break-all">{data.name}</h1>
          <Badge>{t(`type.${data.route_type}`, { defaultValue: data.route_type })}</Badge>
        </div>
        <p className="mt-1 font-mono text-sm break-all text-muted-foreground">{data.route_name}</p>
        <p className="mt-2 text-sm">
          <span className="text-muted-foreground">{t('provider')}: </span>
          <Link
            to={`/marketplace/${encodeURIComponent(data.provider.slug)}`}
            className="underline-offset-2 hover:underline"
          >
            {data.provider.name}
          </Link>
        </p>
        {data.model_id && (
          <p className="mt-1 text-sm">
            <span className="text-muted-foreground">{t('catalog.model')}: </span>
            <span className="font-mono break-all">{data.model_id}</span>
          </p>
        )}
      </div>

      <div className="grid gap-4 md:grid-cols-3">
        <Card className="md:col-span-2">
          <CardHeader>
            <CardTitle className="text-base">{t('endpoint.last30')}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            <DailyChart daily={data.daily} />
            <FiguresTable stats={data.stats} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">{t('endpoint.price')}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            <p className="font-medium">
              <PriceLabel price={data.price} currency={data.currency} />
            </p>
            <ToolPrices prices={data.tool_prices} currency={data.currency} />
            <CallerReadiness
              priced={
                data.price !== null || Object.values(data.tool_prices ?? {}).some((micros) => micros > 0)
              }
              path={catalogPath(data.route_name)}
            />
          </CardContent>
        </Card>
      </div>

      {data.model && <ModelFigures model={data.model} routeName={data.route_name} />}

      {data.description && (
        <div className="space-y-2">
          <h2 className="text-lg font-semibold">{t('endpoint.about')}</h2>
          <p className="whitespace-pre-line text-muted-foreground">{data.description}</p>
        </div>
      )}

      <div className="space-y-2">
        <h2 className="text-lg font-semibold">{t('endpoint.call')}</h2>
        <p className="text-sm text-muted-foreground">{t('endpoint.callIntro')}</p>
        <Tabs defaultValue="curl">
          <TabsList aria-label={t('endpoint.snippets')}>
            {SNIPPETS.filter((kind) => data.snippets[kind] !== undefined).map((kind) => (
              <TabsTrigger key={kind} value={kind}>
                {t(`endpoint.snippet.${kind}`)}
              </TabsTrigger>
            ))}
          </TabsList>
          {SNIPPETS.filter((kind) => data.snippets[kind] !== undefined).map((kind) => (
            <TabsContent key={kind} value={kind} className="space-y-2">
              <div className="flex justify-end">
                <CopyButton text={data.snippets[kind] ?? ''} />
              </div>
              {/* Focusable, so a keyboard can scroll a long line (and axe's scrollable-region rule holds). */}
              <pre
                tabIndex={0}
                aria-label={t(`endpoint.snippet.${kind}`)}
                className="overflow-x-auto rounded-md border bg-muted p-3 text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                data-testid={`snippet-${kind}`}
              >
                <code>{data.snippets[kind]}</code>
              </pre>
            </TabsContent>
          ))}
        </Tabs>
      </div>
      {signedIn && (
        <div className="space-y-2">
          <h2 className="text-lg font-semibold">{t('endpoint.tryIt')}</h2>
          <Playground routeName={data.route_name} protocol={data.protocol} />
        </div>
      )}
    </section>
  );
}
