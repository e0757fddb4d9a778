import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TUsageLogEntry } from '@air/shared/schemas/usage-insight';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { numberFormat } from '@/lib/format-number';
import { formatDateTime } from '@/lib/format-date';

/** The request log's newest calls: when, which route, the answer's status and latency. */
export function LatestCalls({ calls }: { calls: TUsageLogEntry[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const number = numberFormat(i18n.language);
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle className="text-base">{t('latest.title')}</CardTitle>
        <CardDescription>{t('latest.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {calls.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('latest.empty')}</p>
        ) : (
          <ul className="divide-y" aria-label={t('latest.title')} data-testid="latest-calls">
            {calls.map((entry) => (
              <li key={entry.id} className="flex items-center gap-3 py-2 text-sm">
                <Badge variant={entry.status < 400 ? 'green' : entry.status < 500 ? 'orange' : 'red'}>
                  {entry.status}
                </Badge>
                <span className="min-w-0 flex-1 truncate font-mono text-xs">
                  {entry.route_name ??
                    (entry.endpoint_id === null ? t('topRoutes.unknownRoute') : t('topRoutes.deleted'))}
                </span>
                <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                  {t('overview.ms', { value: number.format(entry.latency_ms) })}
                </span>
                <time
                  dateTime={entry.time}
                  className="shrink-0 text-xs text-muted-foreground tabular-nums max-sm:hidden"
                >
                  {formatDateTime(entry.time, i18n.language)}
                </time>
              </li>
            ))}
          </ul>
        )}
        <Link
          to="/account/usage"
          className="mt-2 block text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          {t('latest.log')}
        </Link>
      </CardContent>
    </Card>
  );
}
