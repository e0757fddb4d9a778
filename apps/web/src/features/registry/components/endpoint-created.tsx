import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ReadyCall } from '@/features/dashboard/components/ready-call';
import { mayReadKeys, quickstartKeyQuery } from '@/features/dashboard/dashboard-data';
import { useSnippetKey } from '@/features/dashboard/snippet-key';
import { useSession } from '@/lib/session';
import type { TApiProtocol } from '@air/shared/schemas/aiendpoint';
import { McpReadyCall } from './mcp-ready-call';

/**
 * Shown once an endpoint is made: a ready-to-run call of its route with the account's newest key
 * (masked, copied whole), or the placeholder for members who may not read keys. An MCP endpoint's
 * is an MCP client's configuration and an `initialize` / `tools/list` cURL, not a chat completion.
 */
export function EndpointCreated({
  routeName,
  protocol,
  onClose,
}: {
  routeName: string;
  protocol?: TApiProtocol;
  onClose: () => void;
}) {
  const { t } = useTranslation('registry');
  const { user } = useSession();
  const canReadKeys = mayReadKeys(user?.permission);
  const key = useQuery({ ...quickstartKeyQuery, enabled: canReadKeys });
  const apiKey = useSnippetKey(canReadKeys ? key.data : null);
  return (
    <Card
      role="region"
      aria-label={t('created.title')}
      className="mb-4 min-w-0"
      data-testid="endpoint-created"
    >
      <CardHeader className="flex-row items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 space-y-1.5">
          <CardTitle>{t('created.title')}</CardTitle>
          <CardDescription className="break-all">
            {t('created.description', { route: routeName })}
          </CardDescription>
        </div>
        <Button type="button" variant="ghost" size="icon" className="size-8 shrink-0" onClick={onClose}>
          <X aria-hidden="true" />
          <span className="sr-only">{t('created.dismiss')}</span>
        </Button>
      </CardHeader>
      <CardContent>
        {protocol === 'mcp' ? (
          <McpReadyCall apiKey={apiKey} routeName={routeName} />
        ) : (
          <ReadyCall apiKey={apiKey} routeName={routeName} />
        )}
      </CardContent>
    </Card>
  );
}
