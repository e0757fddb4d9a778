import * as React from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadingStatus } from '@/components/ui/loading-status';
import { ApiError } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { fetchProvider } from '../catalog-api';
import { CatalogBrowser } from '../components/catalog-browser';
import { FiguresTable } from '../components/figures-table';
import { usePageMeta } from '../page-meta';

/**
 * /marketplace/{provider}: a provider's page (issue 44 item 4): its name and the profile its owner
 * writes, the combined figures of its listed endpoints over 7 and 30 days, and its endpoints
 * (the catalog, fixed to the provider, with its search, sorts and filters).
 */
export default function ProviderPage() {
  const { provider = '' } = useParams();
  const { t } = useTranslation('marketplace');
  const handleError = useErrorHandler();
  const page = useQuery({
    queryKey: ['marketplace-provider', provider],
    queryFn: () => fetchProvider(provider),
    retry: false,
  });
  const notFound = page.error instanceof ApiError && [400, 404].includes(page.error.status);
  React.useEffect(() => {
    if (page.error && !notFound) handleError(page.error);
  }, [page.error, notFound, handleError]);
  const data = page.data;
  const name = data?.provider.name ?? provider;
  usePageMeta(t('provider.metaTitle', { provider: name }), t('provider.metaDescription', { provider: name }));

  return (
    <section className="space-y-6">
      <div>
        <nav aria-label={t('endpoint.breadcrumb')} className="mb-2 text-sm">
          <Link to="/marketplace" className="text-muted-foreground underline-offset-2 hover:underline">
            {t('endpoint.back')}
          </Link>
        </nav>
        <h1 className="text-2xl font-semibold tracking-tight break-all">
          {data ? data.provider.name : t('provider.heading', { provider })}
        </h1>
        {data && <p className="font-mono text-sm text-muted-foreground">{data.provider.slug}</p>}
      </div>
      {page.isPending ? (
        <LoadingStatus className="inline-flex" label={t('provider.loading')} />
      ) : notFound ? (
        <BlankSlate title={t('provider.notFoundTitle')} text={t('provider.notFoundText')} />
      ) : data ? (
        <>
          <div className="grid gap-4 md:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle className="text-base">{t('provider.about')}</CardTitle>
              </CardHeader>
              <CardContent className="text-sm">
                {data.provider.profile ? (
                  <p className="whitespace-pre-line" data-testid="provider-profile">
                    {data.provider.profile}
                  </p>
                ) : (
                  <p className="text-muted-foreground">{t('provider.noProfile')}</p>
                )}
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle className="text-base">{t('provider.figures')}</CardTitle>
              </CardHeader>
              <CardContent>
                <FiguresTable stats={data.stats} caption={t('provider.figures')} />
              </CardContent>
            </Card>
          </div>
          <h2 className="text-lg font-semibold">
            {t('provider.endpoints', { count: data.endpoints.length })}
          </h2>
          <CatalogBrowser provider={provider} />
        </>
      ) : null}
    </section>
  );
}
