import { numberFormat } from '@/lib/format-number';
import * as React from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Loader2, Send, Square } from 'lucide-react';
import { Controller } from 'react-hook-form';
import { hasPermission } from '@air/shared/permissions';
import { ZGatewayRequest } from '@air/shared/schemas/gateway';
import type { TApiProtocol } from '@air/shared/schemas/aiendpoint';
import { errorText } from '@/components/form/error-text';
import { FORM_ERROR, useBodyForm } from '@/components/form/use-body-form';
import type { TFieldError } from '@/components/form/use-form';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { useSession } from '@/lib/session';
import { readAnswer, type TPlaygroundResult } from '../playground-stream';
import { McpReadyCall } from './mcp-ready-call';

const selectClass =
  'h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/** Single quotes for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

interface TPlaygroundValues {
  key_id: string;
  system: string;
  message: string;
  stream: boolean;
}

/** The chat completion the playground sends to the gateway (and shows as cURL). */
function playgroundBody(routeName: string, { system, message, stream }: TPlaygroundValues) {
  const messages = [
    ...(system.trim() ? [{ role: 'system', content: system }] : []),
    { role: 'user', content: message },
  ];
  return {
    model: routeName,
    messages,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/** `messages.0.content` → the field it came from (the system prompt, when there is one, is first). */
function playgroundFieldOf(path: string, values: TPlaygroundValues): string | undefined {
  const index = /^messages\.(\d+)/.exec(path)?.[1];
  if (index === undefined) return undefined;
  return Number(index) === 0 && values.system.trim() ? 'system' : 'message';
}

/**
 * "Try it": one chat completion through the gateway itself (so it is metered like any call) with
 * one of the account's keys; the answer streams in with status, latency, time to first token and
 * tokens; the exact request can be copied as cURL. An MCP endpoint (`protocol` mcp) has no chat
 * completion: its "Try it" is an MCP client's configuration and cURL with the chosen key.
 */
export function Playground({ routeName, protocol }: { routeName: string; protocol?: TApiProtocol }) {
  const { t } = useTranslation('registry');
  const { user } = useSession();
  const handleError = useErrorHandler();
  const isDeveloper = hasPermission(user?.permission, 'developer');
  const keys = useQuery({
    queryKey: ['playground-keys'],
    enabled: isDeveloper,
    queryFn: async () =>
      ((await call('GET /api/key')).data ?? []).filter(
        (key) => key.active && key.scope.includes('gateway.invoke'),
      ),
  });
  const form = useBodyForm<TPlaygroundValues>({
    defaultValues: { key_id: '', system: '', message: '', stream: true },
    schema: ZGatewayRequest,
    toBody: (values) => playgroundBody(routeName, values),
    fieldOf: playgroundFieldOf,
  });
  const { key_id: keyId, message, stream } = form.watch();
  const [result, setResult] = React.useState<TPlaygroundResult | null>(null);
  const [running, setRunning] = React.useState(false);
  const abort = React.useRef<AbortController | null>(null);
  const chosen = keyId || keys.data?.[0]?.id || '';
  // The chosen key in full (GET /api/key/{id} reveals it to a developer), for the call and the cURL.
  const fullKey = useQuery({
    queryKey: ['playground-key', chosen],
    enabled: Boolean(chosen),
    staleTime: Infinity,
    queryFn: async () => {
      const res = await call('GET /api/key/:id', { params: { id: chosen } });
      return res.data?.key ?? '';
    },
  });

  React.useEffect(() => {
    if (keys.error) handleError(keys.error);
    else if (fullKey.error) handleError(fullKey.error);
  }, [keys.error, fullKey.error, handleError]);
  React.useEffect(() => () => abort.current?.abort(), []);

  const body = playgroundBody(routeName, form.watch());
  const endpoint = `${window.location.origin}/api/v1/chat/completions`;
  const curl = (key: string) =>
    [
      `curl${stream ? ' -N' : ''} ${endpoint}`,
      `  -H ${shellQuote(`Authorization: Bearer ${key}`)}`,
      `  -H 'Content-Type: application/json'`,
      `  -H ${shellQuote(`x-route-name: ${routeName}`)}`,
      `  -d ${shellQuote(JSON.stringify(body))}`,
    ].join(' \\\n');

  async function send(values: TPlaygroundValues) {
    const key = fullKey.data;
    if (!key || !values.message.trim()) return;
    setRunning(true);
    setResult(null);
    const controller = new AbortController();
    abort.current = controller;
    try {
      await readAnswer({
        url: endpoint,
        key,
        routeName,
        body: playgroundBody(routeName, values),
        signal: controller.signal,
        onUpdate: (update) => setResult({ ...update }),
      });
    } catch (error) {
      if ((error as Error).name !== 'AbortError') handleError(error);
    } finally {
      setRunning(false);
      abort.current = null;
    }
  }

  if (!isDeveloper) return <p className="text-sm text-muted-foreground">{t('playground.needsDeveloper')}</p>;
  if (keys.isPending) return <Loader2 className="size-4 animate-spin" aria-label={t('common:loading')} />;
  if (!keys.data?.length) {
    return (
      <p className="text-sm">
        {t('playground.noKey')}{' '}
        <Link className="text-primary underline underline-offset-4" to="/account/apikeys/create">
          {t('playground.createKey')}
        </Link>
      </p>
    );
  }

  const keySelect = (
    <div className="grid gap-1">
      <Label htmlFor="playground-key">{t('playground.key')}</Label>
      <select id="playground-key" className={selectClass} {...form.register('key_id')} value={chosen}>
        {keys.data.map((key) => (
          <option key={key.id} value={key.id}>
            {key.name}
          </option>
        ))}
      </select>
    </div>
  );
  if (protocol === 'mcp') {
    const listed = keys.data.find((key) => key.id === chosen);
    const full = fullKey.data;
    return (
      <div className="grid gap-4">
        <div className="flex flex-wrap items-end gap-4">{keySelect}</div>
        <McpReadyCall
          apiKey={{ shown: listed?.key ?? 'air_…', ...(full ? { full: () => Promise.resolve(full) } : {}) }}
          routeName={routeName}
        />
      </div>
    );
  }

  const number = numberFormat();
  const errors = form.formState.errors as Record<string, TFieldError | undefined>;
  const errorOf = (name: 'system' | 'message' | typeof FORM_ERROR) =>
    errorText(
      t,
      errors[name],
      name === FORM_ERROR ? undefined : t(`playground.${name === 'message' ? 'user' : name}`),
    );
  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => void form.handleSubmit(send)(e)}
      aria-label={t('playground.title')}
    >
      <div className="flex flex-wrap items-end gap-4">
        {keySelect}
        <div className="flex items-center gap-2 pb-2">
          <Controller
            name="stream"
            control={form.control}
            render={({ field }) => (
              <Switch
                id="playground-stream"
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
          <Label htmlFor="playground-stream">{t('playground.stream')}</Label>
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="playground-system">{t('playground.system')}</Label>
        <Textarea
          id="playground-system"
          rows={2}
          aria-invalid={errorOf('system') ? true : undefined}
          aria-describedby={errorOf('system') ? 'playground-system-error' : undefined}
          {...form.register('system')}
        />
        {errorOf('system') && (
          <p id="playground-system-error" className="text-sm text-destructive">
            {errorOf('system')}
          </p>
        )}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="playground-user">{t('playground.user')}</Label>
        <Textarea
          id="playground-user"
          rows={3}
          required
          aria-invalid={errorOf('message') ? true : undefined}
          aria-describedby={errorOf('message') ? 'playground-user-error' : undefined}
          {...form.register('message')}
        />
        {errorOf('message') && (
          <p id="playground-user-error" className="text-sm text-destructive">
            {errorOf('message')}
          </p>
        )}
      </div>
      {errorOf(FORM_ERROR) && (
        <p role="alert" className="text-sm text-destructive">
          {errorOf(FORM_ERROR)}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {running ? (
          <Button type="button" variant="outline" onClick={() => abort.current?.abort()}>
            <Square className="size-4" aria-hidden="true" />
            {t('playground.stop')}
          </Button>
        ) : (
          <Button type="submit" disabled={!message.trim() || !fullKey.data}>
            <Send className="size-4" aria-hidden="true" />
            {t('playground.send')}
          </Button>
        )}
        <CopyButton size="default" label={t('playground.copyCurl')} text={curl(fullKey.data ?? 'air_…')} />
      </div>
      {result && (
        <div className="grid gap-3" data-testid="playground-result">
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4 xl:grid-cols-7">
            {(
              [
                [t('playground.status'), String(result.status || '…')],
                [
                  t('playground.latency'),
                  result.latencyMs === null ? '…' : `${number.format(result.latencyMs)} ms`,
                ],
                [t('playground.ttft'), result.ttftMs === null ? '—' : `${number.format(result.ttftMs)} ms`],
                [
                  t('playground.promptTokens'),
                  result.promptTokens === null ? '—' : number.format(result.promptTokens),
                ],
                [
                  t('playground.completionTokens'),
                  result.completionTokens === null ? '—' : number.format(result.completionTokens),
                ],
                [
                  t('playground.route'),
                  // Marked when another route (a fallback) answered.
                  result.route === null
                    ? '—'
                    : result.route === routeName
                      ? result.route
                      : t('playground.fallback', { route: result.route }),
                ],
                [
                  t('playground.attempts'),
                  result.attempts === null
                    ? '—'
                    : result.cached
                      ? t('playground.cached')
                      : number.format(result.attempts),
                ],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-md border p-2">
                <dt className="text-xs text-muted-foreground">{label}</dt>
                <dd className="font-semibold tabular-nums" data-testid={`playground-${label}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <div>
            <p className="mb-1 text-sm font-medium">{t('playground.answer')}</p>
            <pre
              aria-live="polite"
              data-testid="playground-answer"
              className="min-h-16 rounded-md border bg-muted p-3 text-sm whitespace-pre-wrap"
            >
              {result.text}
              {running && <span className="animate-pulse">▍</span>}
            </pre>
          </div>
        </div>
      )}
    </form>
  );
}
