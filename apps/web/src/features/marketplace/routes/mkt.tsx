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
import { catalogQueryKey, fetchCatalogPage, type TCatalogFilters } from '../catalog-api';
import { catalogPath } from '../components/catalog-card';
import { PriceLabel } from '../components/price-label';
import { StatsLine } from '../components/stats-line';
import { cardDescription, MARKETPLACE_MAX_CARDS } from '../marketplace-text';

/** The catalog's newest listings first, as the grid showed shared endpoints before. */
const FIRST_PAGE: TCatalogFilters = {
  q: '',
  type: '',
  provider: '',
  model: '',
  sort: 'newest',
  window: '7d',
  minUptime: '',
  maxP95: '',
  maxTtft: '',
  minThroughput: '',
  maxPrice: '',
};

/**
 * /mkt: up to 8 listed endpoints as cards titled by type (spec section 9), each with its price and
 * 7-day figures from the public catalog, and a Details button to the same endpoint page as the
 * catalog's (`/marketplace/{provider}/{name}`, where a signed-in caller can try it; issue 38 item 5).
 */
export default function MarketplacePage() {
  const { t } = useTranslation('marketplace');
  const handleError = useErrorHandler();
  const shared = useQuery({
    queryKey: [...catalogQueryKey(FIRST_PAGE), MARKETPLACE_MAX_CARDS],
    // The spec's grid of 8: the server sends no more than the grid shows.
    queryFn: ({ signal }) => fetchCatalogPage(FIRST_PAGE, null, signal, MARKETPLACE_MAX_CARDS),
    select: (page) => page.items,
  });
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
            <li key={endpoint.route_name}>
              <Card className="flex h-full flex-col">
                <CardHeader>
                  <CardTitle>
                    {t(`type.${endpoint.route_type}`, { defaultValue: endpoint.route_type })}
                  </CardTitle>
                  <CardDescription className="font-mono break-all">{endpoint.route_name}</CardDescription>
                </CardHeader>
                <CardContent className="flex-1 space-y-2 text-sm">
                  <p>
                    <span className="text-muted-foreground">{t('provider')}: </span>
                    {endpoint.provider.name}
                  </p>
                  <p data-testid="card-description">{cardDescription(endpoint.description)}</p>
                  <StatsLine stats={endpoint.stats} />
                </CardContent>
                <CardFooter className="flex flex-wrap items-center justify-between gap-2">
                  <span className="text-sm font-medium">
                    <PriceLabel price={endpoint.price} currency={endpoint.currency} />
                  </span>
                  <Button asChild size="sm" variant="outline">
                    <Link
                      to={catalogPath(endpoint.route_name)}
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
