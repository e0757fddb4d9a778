import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@/lib/format-date';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { call } from '@/lib/api';
import { numberFormat } from '@/lib/format-number';
import type { TUpstreamHealth } from '@air/shared/schemas/aiendpoint';

const STATE_VARIANT = { closed: 'green', open: 'red', probing: 'orange' } as const;

/** Why a circuit is open for everyone (contract 6a): no caller can open it for the others alone. */
const REASON_KEY = {
  connection: 'health.reasonConnection',
  owner: 'health.reasonOwner',
  callers: 'health.reasonCallers',
} as const;

/** The card's query: a saved routing change asks it again at once (its upstreams may have changed). */
export const upstreamHealthKey = (endpointId: string) => ['upstream-health', endpointId] as const;

/**
 * When a failing upstream is tried again: its circuit stays open for the cooldown after the failure
 * that opened it (the last failure: while open, no call reaches it). Null when not open.
 */
export function retryInSeconds(
  upstream: Pick<TUpstreamHealth['upstreams'][number], 'state' | 'last_failure_at'>,
  cooldownS: number,
  now = Date.now(),
): number | null {
  if (upstream.state !== 'open' || !upstream.last_failure_at) return null;
  return Math.max(0, Math.ceil((Date.parse(upstream.last_failure_at) + cooldownS * 1000 - now) / 1000));
}

/**
 * Each upstream's live state (closed, open, probing) and why it is open (connection failures, the
 * owner's calls, several caller accounts; or open for some callers only), its last failure and the
 * last hour's calls and failures, refreshed every 10 s while the page is open (the owner's view).
 */
export function UpstreamHealth({ endpointId, cooldownS }: { endpointId: string; cooldownS: number }) {
  const { t, i18n } = useTranslation('registry');
  const health = useQuery({
    queryKey: upstreamHealthKey(endpointId),
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
          // A list, not a table: each upstream's figures wrap under its URL at phone width.
          <ul aria-label={t('health.title')} className="divide-y rounded-md border">
            {data.upstreams.map((upstream) => (
              <li key={upstream.url} data-state={upstream.state} className="space-y-2 p-3">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant={STATE_VARIANT[upstream.state]}>{t(`health.${upstream.state}`)}</Badge>
                  <span className="font-mono text-xs break-all">{upstream.url}</span>
                </div>
                <RetryNote seconds={retryInSeconds(upstream, cooldownS)} />
                {upstream.open_reason !== null && (
                  <p className="text-sm" data-testid="upstream-reason">
                    {t(REASON_KEY[upstream.open_reason], { count: upstream.opened_by_callers })}
                  </p>
                )}
                {upstream.open_for_callers > 0 && (
                  <p className="text-sm text-muted-foreground" data-testid="upstream-callers-only">
                    {t('health.callersOnly', { count: upstream.open_for_callers })}
                  </p>
                )}
                <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
                  <div>
                    <dt className="text-xs text-muted-foreground">{t('routing.weight')}</dt>
                    <dd className="tabular-nums">{upstream.weight}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-muted-foreground">{t('health.lastFailure')}</dt>
                    <dd>
                      {upstream.last_failure_at
                        ? formatDateTime(upstream.last_failure_at, i18n.language)
                        : '—'}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-muted-foreground">{t('health.attempts')}</dt>
                    <dd className="tabular-nums" data-testid="upstream-attempts">
                      {number.format(upstream.attempts_1h)}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-muted-foreground">{t('health.failures')}</dt>
                    <dd className="tabular-nums" data-testid="upstream-failures">
                      {number.format(upstream.failures_1h)}
                    </dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function RetryNote({ seconds }: { seconds: number | null }) {
  const { t } = useTranslation('registry');
  if (seconds === null) return null;
  return (
    <p className="text-sm" data-testid="upstream-retry">
      {seconds > 0 ? t('health.retryIn', { seconds }) : t('health.retryNow')}
    </p>
  );
}
