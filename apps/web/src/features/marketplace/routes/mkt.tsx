import { useEffect } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { PageHeading } from '@/components/layout/page-heading';
import { BlankSlate } from '@/components/ui/blank-slate';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useErrorHandler } from '@/lib/error-handler';
import { fetchSharedEndpoints, SHARED_ENDPOINTS_QUERY } from '@/features/registry/registry-api';
import { cardDescription, MARKETPLACE_MAX_CARDS } from '../marketplace-text';

/** /mkt: up to 8 shared endpoints as cards titled by type, each linking to its detail page. */
export default function MarketplacePage() {
  const { t } = useTranslation('marketplace');
  const handleError = useErrorHandler();
  const shared = useQuery({ queryKey: SHARED_ENDPOINTS_QUERY, queryFn: fetchSharedEndpoints });
  useEffect(() => {
    if (shared.error) handleError(shared.error);
  }, [shared.error, handleError]);

  const cards = (shared.data ?? []).slice(0, MARKETPLACE_MAX_CARDS);
  return (
    <section>
      <PageHeading>
        <Button asChild size="sm" variant="outline">
          <Link to="/marketplace">{t('toCatalog')}</Link>
        </Button>
      </PageHeading>
      {shared.isPending ? (
        <div role="status" className="flex justify-center py-16 text-muted-foreground">
          <Loader2 className="size-8 animate-spin" aria-hidden="true" />
          <span className="sr-only">{t('loading')}</span>
        </div>
      ) : cards.length === 0 ? (
        <BlankSlate title={t('emptyTitle')} text={t('emptyText')} />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {cards.map((endpoint) => (
            <li key={endpoint.id}>
              <Card className="flex h-full flex-col">
                <CardHeader>
                  <CardTitle>
                    {t(`type.${endpoint.route_type}`, { defaultValue: endpoint.route_type })}
                  </CardTitle>
                  <CardDescription className="font-mono break-all">{endpoint.route_name}</CardDescription>
                </CardHeader>
                <CardContent className="flex-1 space-y-1 text-sm">
                  <p>
                    <span className="text-muted-foreground">{t('provider')}: </span>
                    {endpoint.account_orgDisplayName}
                  </p>
                  <p data-testid="card-description">{cardDescription(endpoint.config?.description)}</p>
                </CardContent>
                <CardFooter>
                  <Button asChild size="sm" variant="outline">
                    <Link
                      to={`/aiendpoints/${endpoint.id}`}
                      aria-label={t('detailsOf', { route: endpoint.route_name })}
                    >
                      {t('details')}
                    </Link>
                  </Button>
                </CardFooter>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
