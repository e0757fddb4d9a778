import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TMarketplaceItem, TMarketplaceWindow } from '@air/shared/schemas/marketplace';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { PriceLabel } from './price-label';
import { StatsLine } from './stats-line';

/** The catalog page of a route: `/marketplace/{provider}/{name}` (the route name's two parts). */
export function catalogPath(routeName: string): string {
  const at = routeName.indexOf('/');
  return `/marketplace/${encodeURIComponent(routeName.slice(0, at))}/${encodeURIComponent(routeName.slice(at + 1))}`;
}

/** One catalog item: name, provider, type, summary, price and its figures over the window asked. */
export function CatalogCard({
  item,
  window = '7d',
}: {
  item: TMarketplaceItem;
  window?: TMarketplaceWindow;
}) {
  const { t } = useTranslation('marketplace');
  return (
    <Card className="flex h-full flex-col" data-testid="catalog-card">
      <CardHeader className="space-y-1">
        <div className="flex items-start justify-between gap-2">
          <CardTitle className="text-base break-all">
            <Link to={catalogPath(item.route_name)} className="hover:underline focus-visible:underline">
              {item.name}
            </Link>
          </CardTitle>
          <Badge>{t(`type.${item.route_type}`, { defaultValue: item.route_type })}</Badge>
        </div>
        <CardDescription className="font-mono text-xs break-all">{item.route_name}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1 space-y-3 text-sm">
        <p>
          <span className="text-muted-foreground">{t('providerLabel')}: </span>
          <Link
            to={`/marketplace/${encodeURIComponent(item.provider.slug)}`}
            className="underline-offset-2 hover:underline"
          >
            {item.provider.name}
          </Link>
        </p>
        {item.model_id && (
          <p>
            <span className="text-muted-foreground">{t('catalog.model')}: </span>
            <Link
              to={`/marketplace?model=${encodeURIComponent(item.model_id)}`}
              className="font-mono text-xs break-all underline-offset-2 hover:underline"
              data-testid="catalog-model"
            >
              {item.model_id}
            </Link>
          </p>
        )}
        {item.description && <p className="line-clamp-3 text-muted-foreground">{item.description}</p>}
        <StatsLine stats={item.stats} window={window} />
      </CardContent>
      <CardFooter className="text-sm font-medium">
        <PriceLabel price={item.price} currency={item.currency} />
        {Object.keys(item.tool_prices ?? {}).length > 0 && (
          <span className="ml-1 font-normal text-muted-foreground">
            {t('catalog.someToolsPriced', { count: Object.keys(item.tool_prices ?? {}).length })}
          </span>
        )}
      </CardFooter>
    </Card>
  );
}
