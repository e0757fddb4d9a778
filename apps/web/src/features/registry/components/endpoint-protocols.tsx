import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

// Kept here rather than imported so the page does not pull zod in with the shared schema module.
const PROTOCOLS = ['chat', 'responses', 'embeddings', 'completions'] as const;
type TProtocol = (typeof PROTOCOLS)[number];

/**
 * What the gateway serves when none are registered (contract 6c): an upstream URL ending in
 * `/chat/completions` is the base for its siblings, any other URL serves chat alone.
 */
export function servedProtocols(endpoint: Pick<TAiEndpoint, 'protocols' | 'route_endpoint'>): TProtocol[] {
  if (endpoint.protocols) return PROTOCOLS.filter((p) => endpoint.protocols!.includes(p));
  return endpoint.route_endpoint?.replace(/\/+$/, '').endsWith('/chat/completions')
    ? [...PROTOCOLS]
    : ['chat'];
}

/**
 * The Settings tab's protocols card: which OpenAI calls (`/api/v1/chat/completions`, `responses`,
 * `embeddings`, `completions`) the gateway forwards to this endpoint; another is answered 404
 * `unsupported_endpoint`. Saved on change; a failed save puts the switch back; the last one left
 * cannot be switched off (an endpoint serves at least one).
 */
export function EndpointProtocols({
  endpoint,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const [served, setServed] = React.useState<TProtocol[]>(() => servedProtocols(endpoint));
  const [saving, setSaving] = React.useState(false);

  async function save(protocol: TProtocol, on: boolean) {
    const before = served;
    const next = PROTOCOLS.filter((p) => (p === protocol ? on : before.includes(p)));
    setServed(next);
    setSaving(true);
    try {
      await call('PATCH /api/aiendpoint/:id', { params: { id: endpoint.id }, body: { protocols: next } });
      toast({ variant: 'success', title: t('detail.saved') });
      onSaved({ protocols: next });
    } catch (error) {
      setServed(before);
      handleError(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('protocols.title')}</CardTitle>
        <CardDescription>{t('protocols.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-2">
        {PROTOCOLS.map((protocol) => {
          const id = `switch-protocol-${protocol}`;
          const on = served.includes(protocol);
          return (
            <div key={protocol} className="flex items-center justify-between gap-3 rounded-md border p-3">
              <div className="space-y-1">
                <Label htmlFor={id}>{t(`protocols.${protocol}`)}</Label>
                <p id={`${id}-help`} className="font-mono text-xs break-all text-muted-foreground">
                  /api/v1/{protocol === 'chat' ? 'chat/completions' : protocol}
                </p>
              </div>
              <Switch
                id={id}
                aria-describedby={`${id}-help`}
                checked={on}
                disabled={saving || (on && served.length === 1)}
                onCheckedChange={(next) => void save(protocol, next)}
              />
            </div>
          );
        })}
      </CardContent>
    </Card>
  );
}
