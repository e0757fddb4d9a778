import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TOverviewEndpoint } from '@air/shared/schemas/overview';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const STATE_VARIANT = { closed: 'green', probing: 'orange', open: 'red' } as const;

/** Each endpoint's worst upstream circuit (the gateway's live view), the least healthy first. */
export function EndpointHealth({ endpoints, count }: { endpoints: TOverviewEndpoint[]; count: number }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle className="text-base">{t('health.title')}</CardTitle>
        <CardDescription>{t('health.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {endpoints.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {t('health.empty')}{' '}
            <Link to="/registry" className="font-medium text-primary underline underline-offset-4">
              {t('health.register')}
            </Link>
          </p>
        ) : (
          <ul className="divide-y" aria-label={t('health.title')} data-testid="endpoint-health">
            {endpoints.map((endpoint) => (
              <li
                key={endpoint.id}
                data-state={endpoint.state}
                className="flex items-center justify-between gap-2 py-2"
              >
                <Link
                  to={`/aiendpoints/${endpoint.id}`}
                  className="min-w-0 truncate font-mono text-xs underline-offset-4 hover:underline"
                >
                  {endpoint.route_name}
                </Link>
                <span className="flex shrink-0 items-center gap-1">
                  {!endpoint.active && <Badge variant="blue">{t('health.inactive')}</Badge>}
                  <Badge
                    variant={STATE_VARIANT[endpoint.state]}
                    title={
                      endpoint.open_upstreams > 0
                        ? t('health.openOf', { open: endpoint.open_upstreams, total: endpoint.upstreams })
                        : undefined
                    }
                  >
                    {t(`health.${endpoint.state}`)}
                  </Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
        {count > endpoints.length && (
          <Link
            to="/registry"
            className="mt-2 block text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            {t('health.all', { count })}
          </Link>
        )}
      </CardContent>
    </Card>
  );
}
