import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

/**
 * The Settings tab's traces card: whether the operator's OpenTelemetry spans may carry this
 * endpoint's prompts and answers (`config.trace_content`, off by default). Saved on change; a
 * failed save puts the switch back.
 */
export function EndpointTracing({
  endpoint,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const [checked, setChecked] = React.useState(endpoint.config.trace_content);
  const [saving, setSaving] = React.useState(false);

  async function save(next: boolean) {
    setChecked(next);
    setSaving(true);
    try {
      await call('PATCH /api/aiendpoint/:id', {
        params: { id: endpoint.id },
        body: { config: { trace_content: next } },
      });
      toast({ variant: 'success', title: t('detail.saved') });
      onSaved({ config: { ...endpoint.config, trace_content: next } });
    } catch (error) {
      setChecked(!next);
      handleError(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('tracing.title')}</CardTitle>
        <CardDescription>{t('tracing.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-start justify-between gap-3 rounded-md border p-3">
          <div className="space-y-1">
            <Label htmlFor="switch-trace-content">{t('tracing.content')}</Label>
            <p id="switch-trace-content-help" className="text-xs text-muted-foreground">
              {t('tracing.contentHelp')}
            </p>
          </div>
          <Switch
            id="switch-trace-content"
            aria-describedby="switch-trace-content-help"
            checked={checked}
            disabled={saving}
            onCheckedChange={(next) => void save(next)}
          />
        </div>
      </CardContent>
    </Card>
  );
}
