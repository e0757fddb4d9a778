import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Plus, Trash2, X } from 'lucide-react';
import { get, useFieldArray } from 'react-hook-form';
import { ROUTING_LIMITS, UPSTREAM_FORMATS, type TUpstreamFormat } from '@air/shared/schemas/aiendpoint';
import { errorText } from '@/components/form/error-text';
import { FORM_ERROR } from '@/components/form/use-body-form';
import type { TFieldError } from '@/components/form/use-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { call } from '@/lib/api';
import type { TAiEndpoint } from '../endpoint-types';
import { useEndpointConfigForm } from './use-endpoint-config-form';

interface TRoutingValues {
  upstreams: { url: string; weight: string; format: TUpstreamFormat }[];
  attempts: string;
  backoff_ms: string;
  fallbacks: string[];
  failures: string;
  cooldown_s: string;
  cache_ttl_s: string;
}

/** Digits as a number; anything else stays text, so the shared schema refuses it with its message. */
function numberOf(text: string): number | string {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The routing part of the PATCH config. */
function routingBody(values: TRoutingValues) {
  return {
    upstreams: values.upstreams.map((row) => ({
      url: row.url.trim(),
      weight: numberOf(row.weight),
      format: row.format,
    })),
    retry: { attempts: numberOf(values.attempts), backoff_ms: numberOf(values.backoff_ms) },
    fallbacks: values.fallbacks,
    circuit: { failures: numberOf(values.failures), cooldown_s: numberOf(values.cooldown_s) },
    cache_ttl_s: numberOf(values.cache_ttl_s),
  };
}

const ROUTING_FIELDS = new Set([
  'attempts',
  'backoff_ms',
  'fallbacks',
  'failures',
  'cooldown_s',
  'cache_ttl_s',
]);

/** `config.upstreams.1.weight` → `upstreams.1.weight`, `config.retry.attempts` → `attempts`. */
function routingFieldOf(path: string, values: TRoutingValues): string | undefined {
  const parts = path.replace(/^config\./, '').split('.');
  if (parts[0] === 'upstreams') {
    const index = Number(parts[1]);
    if (parts.length > 1 && values.upstreams[index]) return `upstreams.${index}.${parts[2] ?? 'url'}`;
    return 'upstreams.root';
  }
  const name = parts[0] === 'retry' || parts[0] === 'circuit' ? parts[1] : parts[0];
  return name && ROUTING_FIELDS.has(name) ? name : undefined;
}

const selectClass =
  'h-9 w-full rounded-md border border-input bg-background px-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/**
 * Routing and resilience (server contract 6a), in the endpoint's Settings tab: upstreams with
 * weights, retries, fallbacks picked from the routes the account may call, the circuit and the
 * cache. On the one form engine with the server's schema (ZUpdateAiEndpoint): its ranges are the
 * form's rules, and the server's refusal shows under the field it names.
 */
export function EndpointRouting({
  endpoint,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
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
  const { form, onSubmit, saving } = useEndpointConfigForm<TRoutingValues>({
    endpoint,
    defaultValues: {
      upstreams: upstreams.map((u) => ({
        url: u.url,
        weight: String(u.weight),
        format: 'format' in u && u.format ? u.format : 'openai',
      })),
      attempts: String(retry.attempts),
      backoff_ms: String(retry.backoff_ms),
      fallbacks: config.fallbacks ?? [],
      failures: String(circuit.failures),
      cooldown_s: String(circuit.cooldown_s),
      cache_ttl_s: String(config.cache_ttl_s ?? 0),
    },
    toBody: (values) => ({ config: routingBody(values) }),
    fieldOf: routingFieldOf,
    onSuccess: (answer) => {
      if (answer.data) onSaved({ route_endpoint: answer.data.route_endpoint, config: answer.data.config });
    },
  });
  const rows = useFieldArray({ control: form.control, name: 'upstreams' });
  const fallbacks = form.watch('fallbacks');
  const setFallbacks = (list: string[]) => form.setValue('fallbacks', list, { shouldDirty: true });
  const [picked, setPicked] = React.useState('');

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
    root: t('routing.upstreams'),
    url: t('routing.url'),
    weight: t('routing.weight'),
    attempts: t('routing.attempts'),
    backoff_ms: t('routing.backoff'),
    fallbacks: t('routing.fallbacks'),
    failures: t('routing.failures'),
    cooldown_s: t('routing.cooldown'),
    cache_ttl_s: t('routing.cacheTtl'),
  };
  /** A slot's message: the schema's, translated with the slot's label, or the server's as it is. */
  const messageOf = (slot: string) =>
    errorText(
      t,
      get(form.formState.errors, slot) as TFieldError | undefined,
      labels[slot.split('.').pop()!] ?? '',
    );
  const errorOf = (slot: string, id?: string) => {
    const message = messageOf(slot);
    return message ? (
      <p id={id} className="text-sm text-destructive">
        {message}
      </p>
    ) : null;
  };
  const numberInput = (
    id: string,
    slot: Exclude<keyof TRoutingValues, 'upstreams' | 'fallbacks'>,
    range: { min: number; max: number },
  ) => (
    <div className="space-y-1">
      <Label htmlFor={id}>{labels[slot]}</Label>
      <Input
        id={id}
        inputMode="numeric"
        aria-invalid={messageOf(slot) ? true : undefined}
        aria-describedby={`${id}-help`}
        {...form.register(slot)}
      />
      {messageOf(slot) ? (
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
            {rows.fields.map((row, index) => (
              <div key={row.id} className="space-y-1">
                <div className="grid grid-cols-[1fr_7rem_5rem_auto] gap-2">
                  <Input
                    aria-label={`${labels.url} ${index + 1}`}
                    placeholder="https://"
                    autoComplete="off"
                    aria-invalid={messageOf(`upstreams.${index}.url`) ? true : undefined}
                    {...form.register(`upstreams.${index}.url`)}
                  />
                  <select
                    className={selectClass}
                    aria-label={`${t('routing.format')} ${index + 1}`}
                    {...form.register(`upstreams.${index}.format`)}
                  >
                    {UPSTREAM_FORMATS.map((format) => (
                      <option key={format} value={format}>
                        {t(`routing.formats.${format}`)}
                      </option>
                    ))}
                  </select>
                  <Input
                    aria-label={`${labels.weight} ${index + 1}`}
                    inputMode="numeric"
                    aria-invalid={messageOf(`upstreams.${index}.weight`) ? true : undefined}
                    {...form.register(`upstreams.${index}.weight`)}
                  />
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    disabled={rows.fields.length <= ROUTING_LIMITS.upstreams.min}
                    aria-label={t('routing.removeUpstream', { n: index + 1 })}
                    onClick={() => rows.remove(index)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
                {errorOf(`upstreams.${index}.url`)}
                {errorOf(`upstreams.${index}.weight`)}
              </div>
            ))}
            {errorOf('upstreams.root')}
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={rows.fields.length >= ROUTING_LIMITS.upstreams.max}
              onClick={() => rows.append({ url: '', weight: '1', format: 'openai' }, { shouldFocus: false })}
            >
              <Plus aria-hidden="true" />
              {t('routing.addUpstream')}
            </Button>
          </fieldset>

          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-medium">{t('routing.retry')}</legend>
            {numberInput('routing-attempts', 'attempts', ROUTING_LIMITS.attempts)}
            {numberInput('routing-backoff', 'backoff_ms', ROUTING_LIMITS.backoffMs)}
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
                      onClick={() => setFallbacks(fallbacks.filter((item) => item !== name))}
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
                    setFallbacks([...fallbacks, picked]);
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
            {numberInput('routing-failures', 'failures', ROUTING_LIMITS.failures)}
            {numberInput('routing-cooldown', 'cooldown_s', ROUTING_LIMITS.cooldownS)}
          </fieldset>

          <div className="grid gap-4 sm:grid-cols-2">
            {numberInput('routing-cache', 'cache_ttl_s', ROUTING_LIMITS.cacheTtlS)}
          </div>
          {messageOf(FORM_ERROR) && (
            <p role="alert" className="text-sm text-destructive">
              {messageOf(FORM_ERROR)}
            </p>
          )}
          <Button type="submit" loading={saving}>
            {t('routing.save')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
