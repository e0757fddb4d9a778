import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TMarketplaceModel } from '@air/shared/schemas/marketplace';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { catalogPath } from './catalog-card';
import { FiguresTable } from './figures-table';

/**
 * An endpoint's model across every listed endpoint serving it (decision 062): how many, which
 * (each linked to its page, this one unlinked), and their combined figures over 7 and 30 days.
 */
export function ModelFigures({ model, routeName }: { model: TMarketplaceModel; routeName: string }) {
  const { t } = useTranslation('marketplace');
  const title = t('endpoint.modelAcross', { count: model.providers, model: model.model_id });
  return (
    <Card data-testid="model-figures">
      <CardHeader>
        <CardTitle className="text-base break-all">{title}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        <ul
          className="flex flex-wrap gap-x-4 gap-y-1 font-mono text-xs"
          aria-label={t('endpoint.modelProviders')}
        >
          {model.route_names.map((name) => (
            <li key={name} className="break-all">
              {name === routeName ? (
                <span aria-current="page">{name}</span>
              ) : (
                <Link to={catalogPath(name)} className="underline-offset-2 hover:underline">
                  {name}
                </Link>
              )}
            </li>
          ))}
        </ul>
        <FiguresTable stats={model.stats} caption={title} />
        <p>
          <Link
            to={`/marketplace?model=${encodeURIComponent(model.model_id)}`}
            className="underline-offset-2 hover:underline"
          >
            {t('endpoint.modelCompare')}
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
