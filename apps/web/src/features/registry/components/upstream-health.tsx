import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@/components/table/format';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { call } from '@/lib/api';
import { numberFormat } from '@/lib/format-number';

const STATE_VARIANT = { closed: 'green', open: 'red', probing: 'orange' } as const;

/**
 * Each upstream's live state (closed, open, probing), its last failure and the last hour's calls
 * and failures, refreshed every 10 s while the page is open (the owner's view).
 */
export function UpstreamHealth({ endpointId }: { endpointId: string }) {
  const { t, i18n } = useTranslation('registry');
  const health = useQuery({
    queryKey: ['upstream-health', endpointId],
    queryFn: async () =>
      (await call('GET /api/aiendpoint/:id/upstreams', { params: { id: endpointId } })).data,
    refetchInterval: 10_000,
  });
  const data = health.data;
  const number = numberFormat(i18n.language);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('health.title')}</CardTitle>
        <CardDescription>{t(data && !data.routed ? 'health.plain' : 'health.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {!data ? (
          <div role="status" className="h-16 animate-pulse rounded bg-muted">
            <span className="sr-only">{t('common:loading')}</span>
          </div>
        ) : (
          <div className="overflow-x-auto rounded-md border">
            <Table aria-label={t('health.title')}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t('routing.url')}</TableHead>
                  <TableHead className="text-right">{t('routing.weight')}</TableHead>
                  <TableHead>{t('health.state')}</TableHead>
                  <TableHead>{t('health.lastFailure')}</TableHead>
                  <TableHead className="text-right">{t('health.attempts')}</TableHead>
                  <TableHead className="text-right">{t('health.failures')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.upstreams.map((upstream) => (
                  <TableRow key={upstream.url} data-state={upstream.state}>
                    <TableCell className="max-w-64 font-mono text-xs break-all">{upstream.url}</TableCell>
                    <TableCell className="text-right tabular-nums">{upstream.weight}</TableCell>
                    <TableCell>
                      <Badge variant={STATE_VARIANT[upstream.state]}>{t(`health.${upstream.state}`)}</Badge>
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {upstream.last_failure_at
                        ? formatDateTime(upstream.last_failure_at, i18n.language)
                        : '—'}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {number.format(upstream.attempts_1h)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {number.format(upstream.failures_1h)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
