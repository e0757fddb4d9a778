import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Plus, Trash2, X } from 'lucide-react';
import { ROUTING_LIMITS, ZAiEndpointConfigInput } from '@air/shared/schemas/aiendpoint';
import { describeIssue } from '@air/shared/validation';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError, call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

interface TUpstreamRow {
  key: number;
  url: string;
  weight: string;
}

let nextKey = 0;

/** Digits as a number; anything else stays text, so the shared schema refuses it with its message. */
function numberOf(text: string): number | string {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

const selectClass =
  'h-9 w-full rounded-md border border-input bg-background px-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/**
 * Routing and resilience (server contract 6a), in the endpoint's Settings tab: upstreams with
 * weights, retries, fallbacks picked from the routes the account may call, the circuit and the
 * cache. The shared schema's ranges are the form's rules; the server's refusal shows under the
 * field it names.
 */
export function EndpointRouting({
  endpoint,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const config = endpoint.config;
  const upstreams = config.upstreams ?? [{ url: endpoint.route_endpoint ?? '', weight: 1 }];
  const retry = config.retry ?? {
    attempts: ROUTING_LIMITS.attempts.default,
    backoff_ms: ROUTING_LIMITS.backoffMs.default,
  };
  const circuit = config.circuit ?? {
    failures: ROUTING_LIMITS.failures.default,
    cooldown_s: ROUTING_LIMITS.cooldownS.default,
  };
  const [rows, setRows] = React.useState<TUpstreamRow[]>(() =>
    upstreams.map((u) => ({ key: nextKey++, url: u.url, weight: String(u.weight) })),
  );
  const [attempts, setAttempts] = React.useState(String(retry.attempts));
  const [backoff, setBackoff] = React.useState(String(retry.backoff_ms));
  const [fallbacks, setFallbacks] = React.useState<string[]>(config.fallbacks ?? []);
  const [failures, setFailures] = React.useState(String(circuit.failures));
  const [cooldown, setCooldown] = React.useState(String(circuit.cooldown_s));
  const [cacheTtl, setCacheTtl] = React.useState(String(config.cache_ttl_s ?? 0));
  const [picked, setPicked] = React.useState('');
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [saving, setSaving] = React.useState(false);

  // The fallback picker offers the routes the account may call: its own and every shared one.
  const callable = useQuery({
    queryKey: ['callable-routes'],
    queryFn: async () => {
      const [own, shared] = await Promise.all([
        call('GET /api/aiendpoint'),
        call('GET /api/aiendpointShared'),
      ]);
      const names = new Set<string>();
      for (const item of [...(own.data ?? []), ...(shared.data ?? [])])
        if (item.isActive) names.add(item.route_name);
      return [...names].sort();
    },
  });
  const choices = (callable.data ?? []).filter(
    (name) => name !== endpoint.route_name && !fallbacks.includes(name),
  );

  const labels: Record<string, string> = {
    upstreams: t('routing.upstreams'),
    url: t('routing.url'),
    weight: t('routing.weight'),
    attempts: t('routing.attempts'),
    backoff_ms: t('routing.backoff'),
    fallbacks: t('routing.fallbacks'),
    failures: t('routing.failures'),
    cooldown_s: t('routing.cooldown'),
    cache_ttl_s: t('routing.cacheTtl'),
  };
  /** `config.upstreams.1.weight` → the error slot `upstreams.<row key>.weight`. */
  function slotOf(path: string): string {
    const parts = path.replace(/^config\./, '').split('.');
    if (parts[0] === 'upstreams' && parts.length > 1) {
      const row = rows[Number(parts[1])];
      return row ? `upstreams.${row.key}.${parts[2] ?? 'url'}` : 'upstreams';
    }
    if (parts[0] === 'retry' || parts[0] === 'circuit') return parts[1] ?? parts[0];
    return parts[0]!;
  }

  function body() {
    return {
      upstreams: rows.map((row) => ({ url: row.url.trim(), weight: numberOf(row.weight) })),
      retry: { attempts: numberOf(attempts), backoff_ms: numberOf(backoff) },
      fallbacks,
      circuit: { failures: numberOf(failures), cooldown_s: numberOf(cooldown) },
      cache_ttl_s: numberOf(cacheTtl),
    };
  }

  function validate(sent: ReturnType<typeof body>): Record<string, string> {
    const result = ZAiEndpointConfigInput.safeParse(sent);
    if (result.success) return {};
    const out: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const message = describeIssue(issue);
      const slot = slotOf(message.field);
      const label = labels[slot.split('.').pop()!] ?? labels[slot] ?? '';
      out[slot] ??= t(`form:${message.key}`, { ...message.params, field: label });
    }
    return out;
  }

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const sent = body();
    const found = validate(sent);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      const answer = await call('PATCH /api/aiendpoint/:id', {
        params: { id: endpoint.id },
        body: { config: sent as never },
      });
      if (answer.data) onSaved({ route_endpoint: answer.data.route_endpoint, config: answer.data.config });
      toast({ variant: 'success', title: t('detail.saved') });
    } catch (error) {
      const refused = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      if (refused?.message && refused.inputError)
        setErrors({ [slotOf(refused.inputError)]: refused.message });
      else handleError(error);
    } finally {
      setSaving(false);
    }
  }

  const errorOf = (slot: string, id?: string) =>
    errors[slot] ? (
      <p id={id} className="text-sm text-destructive">
        {errors[slot]}
      </p>
    ) : null;
  const numberInput = (
    id: string,
    value: string,
    set: (value: string) => void,
    slot: string,
    range: { min: number; max: number },
  ) => (
    <div className="space-y-1">
      <Label htmlFor={id}>{labels[slot]}</Label>
      <Input
        id={id}
        inputMode="numeric"
        value={value}
        aria-invalid={errors[slot] ? true : undefined}
        aria-describedby={`${id}-help`}
        onChange={(e) => set(e.target.value)}
      />
      {errors[slot] ? (
        errorOf(slot, `${id}-help`)
      ) : (
        <p id={`${id}-help`} className="text-xs text-muted-foreground">
          {t('routing.range', { min: range.min, max: range.max })}
        </p>
      )}
    </div>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('routing.title')}</CardTitle>
        <CardDescription>{t('routing.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label={t('routing.title')}
          onSubmit={(e) => void onSubmit(e)}
          className="space-y-6"
          aria-busy={saving || undefined}
        >
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">{labels.upstreams}</legend>
            <p className="text-xs text-muted-foreground">{t('routing.upstreamsHelp')}</p>
            {rows.map((row, index) => (
              <div key={row.key} className="space-y-1">
                <div className="grid grid-cols-[1fr_5rem_auto] gap-2">
                  <Input
                    aria-label={`${labels.url} ${index + 1}`}
                    placeholder="https://"
                    value={row.url}
                    autoComplete="off"
                    aria-invalid={errors[`upstreams.${row.key}.url`] ? true : undefined}
                    onChange={(e) =>
                      setRows((rs) => rs.map((r) => (r.key === row.key ? { ...r, url: e.target.value } : r)))
                    }
                  />
                  <Input
                    aria-label={`${labels.weight} ${index + 1}`}
                    inputMode="numeric"
                    value={row.weight}
                    aria-invalid={errors[`upstreams.${row.key}.weight`] ? true : undefined}
                    onChange={(e) =>
                      setRows((rs) =>
                        rs.map((r) => (r.key === row.key ? { ...r, weight: e.target.value } : r)),
                      )
                    }
                  />
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    disabled={rows.length <= ROUTING_LIMITS.upstreams.min}
                    aria-label={t('routing.removeUpstream', { n: index + 1 })}
                    onClick={() => setRows((rs) => rs.filter((r) => r.key !== row.key))}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
                {errorOf(`upstreams.${row.key}.url`)}
                {errorOf(`upstreams.${row.key}.weight`)}
              </div>
            ))}
            {errorOf('upstreams')}
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={rows.length >= ROUTING_LIMITS.upstreams.max}
              onClick={() => setRows((rs) => [...rs, { key: nextKey++, url: '', weight: '1' }])}
            >
              <Plus aria-hidden="true" />
              {t('routing.addUpstream')}
            </Button>
          </fieldset>

          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-medium">{t('routing.retry')}</legend>
            {numberInput('routing-attempts', attempts, setAttempts, 'attempts', ROUTING_LIMITS.attempts)}
            {numberInput('routing-backoff', backoff, setBackoff, 'backoff_ms', ROUTING_LIMITS.backoffMs)}
          </fieldset>

          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">{labels.fallbacks}</legend>
            <p className="text-xs text-muted-foreground">{t('routing.fallbacksHelp')}</p>
            {fallbacks.length > 0 && (
              <ol className="space-y-1">
                {fallbacks.map((name, index) => (
                  <li key={name} className="flex items-center gap-2 text-sm">
                    <span className="text-muted-foreground tabular-nums">{index + 1}.</span>
                    <span className="font-mono break-all">{name}</span>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={t('routing.removeFallback', { name })}
                      onClick={() => setFallbacks((list) => list.filter((item) => item !== name))}
                    >
                      <X aria-hidden="true" />
                    </Button>
                  </li>
                ))}
              </ol>
            )}
            {fallbacks.length < ROUTING_LIMITS.fallbacks.max && (
              <div className="flex gap-2">
                <select
                  aria-label={t('routing.pickFallback')}
                  className={selectClass}
                  value={picked}
                  onChange={(e) => setPicked(e.target.value)}
                >
                  <option value="">{t('routing.pickFallback')}</option>
                  {choices.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
                <Button
                  type="button"
                  variant="outline"
                  disabled={!picked}
                  onClick={() => {
                    setFallbacks((list) => [...list, picked]);
                    setPicked('');
                  }}
                >
                  {t('routing.addFallback')}
                </Button>
              </div>
            )}
            {errorOf('fallbacks')}
          </fieldset>

          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-medium">{t('routing.circuit')}</legend>
            {numberInput('routing-failures', failures, setFailures, 'failures', ROUTING_LIMITS.failures)}
            {numberInput('routing-cooldown', cooldown, setCooldown, 'cooldown_s', ROUTING_LIMITS.cooldownS)}
          </fieldset>

          <div className="grid gap-4 sm:grid-cols-2">
            {numberInput('routing-cache', cacheTtl, setCacheTtl, 'cache_ttl_s', ROUTING_LIMITS.cacheTtlS)}
          </div>
          <Button type="submit" loading={saving}>
            {t('routing.save')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
