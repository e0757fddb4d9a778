import * as React from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { ZCreateApiKey, ZUpdateApiKey } from '@air/shared/schemas/api-key';
import { fromIsoDate, toIsoDate } from '@/components/form/date-field';
import { Form } from '@/components/form/form';
import type { TFormFields } from '@/components/form/types';
import { PageHeading } from '@/components/layout/page-heading';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { LoadingStatus } from '@/components/ui/loading-status';
import { ReadyCall } from '@/features/dashboard/components/ready-call';
import { quickstartRouteQuery, refreshDashboard } from '@/features/dashboard/dashboard-data';
import { PLACEHOLDER_ROUTE } from '@air/shared/snippets';
import { spendLimitValue } from '@/features/usage/components/spend-card';
import {
  API_KEYS_QUERY,
  apiKeysQuery,
  CALLABLE_ROUTES_QUERY,
  fetchScopes,
  type TApiKey,
} from '../api-keys-api';

/** /account/apikeys/create and /account/apikeys/edit?id=: one page, the path decides the mode. */
export default function ApiKeyEditPage() {
  const [params] = useSearchParams();
  const editing = useLocation().pathname.replace(/\/$/, '').endsWith('/edit');
  return editing ? <EditApiKey id={params.get('id')} /> : <CreateApiKey />;
}

/**
 * A saved key changes the list and the dashboard (its checklist and its snippets' key): all are
 * fetched again, or a page opened before (cached for 30 s) would not show the new key or name.
 */
function useForgetKeys() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: API_KEYS_QUERY });
    void refreshDashboard(queryClient);
  };
}

function useScopeOptions() {
  const handleError = useErrorHandler();
  const scopes = useQuery({ queryKey: ['api-key-scopes'], queryFn: fetchScopes, staleTime: Infinity });
  React.useEffect(() => {
    if (scopes.error) handleError(scopes.error);
  }, [scopes.error, handleError]);
  return scopes;
}

/** The expiry a picked day means: the key works through the end of that (local) day. */
function expiryOf(day: unknown): string | null {
  const date = fromIsoDate(day);
  if (!date) return null;
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).toISOString();
}

/** The day shown for a stored expiry (the last local day the key works). */
function dayOf(expiresAt: string | null | undefined): string {
  return expiresAt ? toIsoDate(new Date(Date.parse(expiresAt) - 1)) : '';
}

/** Digits typed as text: the number, or null when empty (no cap); anything else stays text (refused). */
function capOf(value: unknown): unknown {
  const text = String(value ?? '').trim();
  if (text === '') return null;
  return /^\d+$/.test(text) ? Number(text) : text;
}

/** The routes this account may call (its own endpoints and every shared public one), by route name. */
function useCallableRoutes() {
  const handleError = useErrorHandler();
  const routes = useQuery({
    queryKey: CALLABLE_ROUTES_QUERY,
    queryFn: async () => {
      const [own, shared] = await Promise.all([
        call('GET /api/aiendpoint'),
        call('GET /api/aiendpointShared'),
      ]);
      const names = new Set<string>();
      for (const endpoint of [...(own.data ?? []), ...(shared.data ?? [])])
        if (endpoint.isActive) names.add(endpoint.route_name);
      return [...names].sort();
    },
  });
  React.useEffect(() => {
    if (routes.error) handleError(routes.error);
  }, [routes.error, handleError]);
  return routes;
}

const DEFAULT_SCOPE = 'gateway.invoke';

function keyFields(
  t: (key: string) => string,
  scopes: string[],
  routes: string[],
  values: Partial<
    Pick<
      TApiKey,
      | 'name'
      | 'scope'
      | 'expires_at'
      | 'routes'
      | 'monthly_calls'
      | 'tokens_per_minute'
      | 'monthly_spend'
      | 'allowed_origins'
      | 'tools'
      | 'tools_read_only'
    >
  > = {},
): TFormFields {
  // A restricted key keeps its routes listed even if one is no longer callable.
  const names = [...new Set([...routes, ...(values.routes ?? [])])].sort();
  return {
    name: {
      type: 'text',
      label: t('form.name'),
      placeholder: t('form.namePlaceholder'),
      value: values.name,
    },
    scope: {
      type: 'checkbox',
      label: t('form.scope'),
      description: t('form.scopeDescription'),
      // In words, with the identifier the API documentation and error messages use.
      options: scopes.map((s) => ({ value: s, label: `${t(`scopes.${s}`)} (${s})` })),
      // A new key calls the gateway unless told otherwise: the scope most keys are made for.
      value: values.scope ?? (scopes.includes(DEFAULT_SCOPE) ? [DEFAULT_SCOPE] : []),
    },
    expires_at: {
      type: 'date',
      label: t('form.expiresAt'),
      description: t('form.expiresAtDescription'),
      placeholder: t('form.never'),
      value: dayOf(values.expires_at),
      toValue: expiryOf,
    },
    routes: {
      type: names.length > 0 ? 'checkbox' : null,
      label: t('form.routes'),
      description: t('form.routesDescription'),
      options: names.map((name) => ({ value: name, label: name })),
      value: values.routes ?? [],
      toValue: (value) => (Array.isArray(value) && value.length > 0 ? value : null),
    },
    monthly_calls: {
      type: 'number',
      label: t('form.monthlyCalls'),
      description: t('form.monthlyCallsDescription'),
      placeholder: t('form.noCap'),
      value: values.monthly_calls == null ? '' : String(values.monthly_calls),
      toValue: capOf,
    },
    tokens_per_minute: {
      type: 'number',
      label: t('form.tokensPerMinute'),
      description: t('form.tokensPerMinuteDescription'),
      placeholder: t('form.noLimit'),
      value: values.tokens_per_minute == null ? '' : String(values.tokens_per_minute),
      toValue: capOf,
    },
    // An amount in the billing currency with up to two decimals, as the spend limit is entered.
    monthly_spend: {
      type: 'text',
      label: t('form.monthlySpend'),
      description: t('form.monthlySpendDescription'),
      placeholder: t('form.noBudget'),
      value: values.monthly_spend == null ? '' : (values.monthly_spend / 100).toFixed(2),
      toValue: spendLimitValue,
    },
    // The web pages that may call the gateway with this key from a browser (CORS), one a line.
    allowed_origins: {
      type: 'textarea',
      label: t('form.allowedOrigins'),
      description: t('form.allowedOriginsDescription'),
      placeholder: 'https://app.example.com',
      value: (values.allowed_origins ?? []).join('\n'),
      toValue: originsOf,
    },
    // MCP tools (contract 6d): `route tool` a line; none is every tool of the routes above.
    tools: {
      type: 'textarea',
      label: t('form.tools'),
      description: t('form.toolsDescription'),
      placeholder: 'acme/docs search',
      value: (values.tools ?? []).map(({ route, tool }) => `${route} ${tool}`).join('\n'),
      toValue: toolsOf,
    },
    tools_read_only: {
      type: 'switch',
      label: t('form.toolsReadOnly'),
      description: t('form.toolsReadOnlyDescription'),
      value: values.tools_read_only ?? false,
    },
  };
}

/** `route tool` a line (spaces part them); no line: null, every tool. A line without a tool is sent as is (refused). */
function toolsOf(value: unknown): { route: string; tool: string }[] | null {
  const tools = String(value ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [route = '', tool = ''] = line.split(/\s+/);
      return { route, tool };
    });
  return tools.length === 0 ? null : tools;
}

/** One origin a line (commas and spaces also part them); none is a key no web page may use. */
function originsOf(value: unknown): string[] {
  return String(value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
}

function Pending() {
  const { t } = useTranslation();
  return <LoadingStatus className="inline-flex" label={t('loading')} />;
}

function CreateApiKey() {
  const { t } = useTranslation('apikeys');
  const scopes = useScopeOptions();
  const routes = useCallableRoutes();
  const forgetKeys = useForgetKeys();
  // The full key is kept in this component's state only; later it can be revealed again from the
  // list by members who may manage keys, and each reveal is recorded in the activity log.
  const [created, setCreated] = React.useState<{ name: string; key: string } | null>(null);
  const route = useQuery({ ...quickstartRouteQuery, enabled: created !== null });

  return (
    <section className="max-w-xl">
      <PageHeading />
      {created ? (
        <Card role="region" aria-label={t('created.title')}>
          <CardHeader>
            <CardTitle>{t('created.title')}</CardTitle>
            <CardDescription>{t('created.description', { name: created.name })}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <p role="note" className="flex items-start gap-2 rounded-md border bg-muted/50 p-3 text-sm">
              <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {t('created.notice')}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <code data-testid="full-key" className="rounded bg-muted px-2 py-1 font-mono text-sm break-all">
                {created.key}
              </code>
              <CopyButton text={created.key} />
            </div>
            {/* The key is on screen already: the call shows it whole. */}
            <ReadyCall apiKey={{ shown: created.key }} routeName={route.data ?? PLACEHOLDER_ROUTE} />
            <Button asChild variant="outline">
              <Link to="/account/apikeys">{t('created.done')}</Link>
            </Button>
          </CardContent>
        </Card>
      ) : scopes.data && routes.data ? (
        <Form
          fields={keyFields(t, scopes.data, routes.data)}
          schema={ZCreateApiKey}
          call="POST /api/key"
          buttonText={t('form.create')}
          onSuccess={(response, sent) => {
            forgetKeys();
            const data = (response.data ?? {}) as Partial<TApiKey> & { full_key?: string };
            const key = data.full_key ?? data.key;
            if (typeof key === 'string') setCreated({ name: String(sent.name ?? data.name ?? ''), key });
          }}
        />
      ) : (
        <Pending />
      )}
    </section>
  );
}

function EditApiKey({ id }: { id: string | null }) {
  const { t } = useTranslation('apikeys');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const scopes = useScopeOptions();
  const routes = useCallableRoutes();
  const forgetKeys = useForgetKeys();
  // The key's settings come from the list, not GET /api/key/{id}: that call reveals the key, and
  // each reveal is recorded in the activity log; editing a name is not a reveal.
  const list = useQuery(apiKeysQuery);
  const found = list.data?.find((k) => k.id === id);
  const unknown = Boolean(list.data && !found);

  // Spec section 8: a missing (or unknown) API key id goes to /404.
  React.useEffect(() => {
    if (!id || unknown) void navigate('/404', { replace: true });
    else if (list.error) handleError(list.error);
  }, [id, unknown, list.error, navigate, handleError]);

  if (!id) return null;
  return (
    <section className="max-w-xl">
      <PageHeading />
      {found && scopes.data && routes.data ? (
        <Form
          key={found.id}
          fields={keyFields(t, scopes.data, routes.data, found)}
          schema={ZUpdateApiKey}
          call="PATCH /api/key/:id"
          params={{ id }}
          onSuccess={forgetKeys}
          redirect="/account/apikeys"
          cancel={() => void navigate('/account/apikeys')}
        />
      ) : list.error || unknown ? null : (
        <Pending />
      )}
    </section>
  );
}
