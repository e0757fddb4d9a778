import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TOverviewRoute } from '@air/shared/schemas/overview';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { numberFormat } from '@/lib/format-number';

/** This period's most called routes, each with a bar relative to the first and its errors. */
export function TopRoutes({ routes }: { routes: TOverviewRoute[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const number = numberFormat(i18n.language);
  const most = Math.max(1, ...routes.map((route) => route.calls));
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle className="text-base">{t('topRoutes.title')}</CardTitle>
        <CardDescription>{t('topRoutes.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {routes.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('topRoutes.empty')}</p>
        ) : (
          <ol className="space-y-3" aria-label={t('topRoutes.title')} data-testid="top-routes">
            {routes.map((route) => {
              // Calls to a route that does not exist are grouped with no endpoint.
              const name =
                route.route_name ??
                (route.endpoint_id === null ? t('topRoutes.unknownRoute') : t('topRoutes.deleted'));
              return (
                <li key={route.endpoint_id ?? 'deleted'} className="space-y-1">
                  <div className="flex items-baseline justify-between gap-2 text-sm">
                    {route.endpoint_id && route.route_name ? (
                      <Link
                        to={`/aiendpoints/${route.endpoint_id}`}
                        className="min-w-0 truncate font-mono text-xs text-foreground underline-offset-4 hover:underline"
                      >
                        {name}
                      </Link>
                    ) : (
                      <span className="min-w-0 truncate font-mono text-xs text-muted-foreground">{name}</span>
                    )}
                    <span className="shrink-0 tabular-nums">
                      {t('topRoutes.calls', { count: route.calls, formatted: number.format(route.calls) })}
                      {route.errors > 0 && (
                        <span className="ml-2 text-destructive">
                          {t('topRoutes.errors', {
                            count: route.errors,
                            formatted: number.format(route.errors),
                          })}
                        </span>
                      )}
                    </span>
                  </div>
                  <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-muted">
                    <div
                      className="h-full rounded-full bg-primary"
                      style={{ width: `${(route.calls / most) * 100}%` }}
                    />
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
