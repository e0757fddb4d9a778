import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

export const mcpToolsKey = (endpointId: string) => ['mcp-tools', endpointId] as const;

/**
 * An MCP endpoint's tools as its server lists them now (contract 6d, the owner's view): name,
 * description, read-only and destructive hints, and the input schema; read again on demand. Each
 * has its switch: a tool switched off is not listed to callers and a call to it is refused
 * (saved on change, `disabled_tools`; a failed save puts the switch back).
 */
export function McpTools({
  endpointId,
  disabledTools,
  onSaved,
}: {
  endpointId: string;
  disabledTools: readonly string[];
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const [disabled, setDisabled] = React.useState<readonly string[]>(disabledTools);
  const [saving, setSaving] = React.useState(false);

  async function toggle(name: string, enabled: boolean) {
    const previous = disabled;
    const next = enabled ? previous.filter((tool) => tool !== name) : [...previous, name].sort();
    setDisabled(next);
    setSaving(true);
    try {
      await call('PATCH /api/aiendpoint/:id', {
        params: { id: endpointId },
        body: { disabled_tools: [...next] },
      });
      toast({ variant: 'success', title: t('detail.saved') });
      onSaved({ disabled_tools: [...next] });
    } catch (error) {
      setDisabled(previous);
      handleError(error);
    } finally {
      setSaving(false);
    }
  }

  const tools = useQuery({
    queryKey: mcpToolsKey(endpointId),
    queryFn: async () => (await call('GET /api/aiendpoint/:id/tools', { params: { id: endpointId } })).data,
  });
  const data = tools.data;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="space-y-1.5">
          <CardTitle>{t('tools.title')}</CardTitle>
          <CardDescription>{t('tools.description')}</CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => void tools.refetch()} disabled={tools.isFetching}>
          {tools.isFetching ? (
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          ) : (
            <RefreshCw className="size-4" aria-hidden="true" />
          )}
          {t('tools.refresh')}
        </Button>
      </CardHeader>
      <CardContent>
        {!data ? (
          <div role="status" className="h-16 animate-pulse rounded bg-muted">
            <span className="sr-only">{t('common:loading')}</span>
          </div>
        ) : data.error !== null ? (
          <p role="alert" className="text-sm text-destructive">
            {t('tools.error', { error: t(`tools.errors.${data.error}`) })}
            {data.detail !== null && <span className="block font-mono text-xs break-all">{data.detail}</span>}
          </p>
        ) : data.tools.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('tools.none')}</p>
        ) : (
          <ul aria-label={t('tools.title')} className="divide-y rounded-md border">
            {data.tools.map((tool) => (
              <li key={tool.name} className="space-y-1 p-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-mono text-sm font-medium break-all">{tool.name}</span>
                  {tool.read_only === true && <Badge variant="green">{t('tools.readOnly')}</Badge>}
                  {tool.destructive === true && <Badge variant="red">{t('tools.destructive')}</Badge>}
                  {disabled.includes(tool.name) && <Badge>{t('tools.off')}</Badge>}
                  <Switch
                    className="ml-auto"
                    aria-label={t('tools.enabled', { name: tool.name })}
                    checked={!disabled.includes(tool.name)}
                    disabled={saving}
                    onCheckedChange={(enabled) => void toggle(tool.name, enabled)}
                  />
                </div>
                {tool.description && <p className="text-sm text-muted-foreground">{tool.description}</p>}
                <details>
                  <summary className="cursor-pointer text-xs text-muted-foreground">
                    {t('tools.schema')}
                  </summary>
                  <pre className="mt-1 overflow-x-auto rounded bg-muted p-2 text-xs">
                    {JSON.stringify(tool.input_schema, null, 2)}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
