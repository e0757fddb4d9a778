import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PageHeading } from '@/components/layout/page-heading';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { useErrorHandler } from '@/lib/error-handler';
import { WebhookCreate } from '../components/webhook-create';
import { WebhookDeliveries } from '../components/webhook-deliveries';
import { deleteWebhook, deliveriesKey, sendTestEvent, updateWebhook, webhooksQuery } from '../webhooks-api';

/**
 * /account/webhooks (admin, contract 6e): the account's outbound webhooks, a form to add one (its
 * signing secret shown once), and per webhook: pause or resume, send a test event, its delivery
 * log, delete.
 */
export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const query = useQuery(webhooksQuery);
  const [open, setOpen] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey });

  const test = useMutation({
    mutationFn: sendTestEvent,
    onSuccess: async (answer, id) => {
      toast({ variant: 'success', title: answer.message ?? t('test.queued') });
      setOpen(id);
      await queryClient.invalidateQueries({ queryKey: deliveriesKey(id) });
    },
    onError: handleError,
  });
  const toggle = useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) => updateWebhook(id, { active }),
    onSuccess: refresh,
    onError: handleError,
  });
  const remove = useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async (answer) => {
      toast({ variant: 'success', title: answer.message ?? t('deleted') });
      await refresh();
    },
    onError: handleError,
  });

  const hooks = query.data ?? [];
  return (
    <section>
      <PageHeading />
      <p className="mb-6 text-sm text-muted-foreground">{t('intro')}</p>
      <WebhookCreate />
      {query.isSuccess && hooks.length === 0 && <p className="text-sm text-muted-foreground">{t('empty')}</p>}
      <ul className="space-y-4" aria-label={t('list')}>
        {hooks.map((hook) => (
          <li key={hook.id}>
            <Card>
              <CardHeader className="gap-2">
                <CardTitle className="break-all font-mono text-sm">{hook.url}</CardTitle>
                <div className="flex flex-wrap gap-1">
                  <Badge variant={hook.active ? 'green' : 'default'}>
                    {t(hook.active ? 'active' : 'paused')}
                  </Badge>
                  {hook.events.map((event) => (
                    <Badge key={event} variant="blue" className="font-mono">
                      {event}
                    </Badge>
                  ))}
                </div>
              </CardHeader>
              <CardContent>
                <div className="mb-4 flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => test.mutate(hook.id)}
                    disabled={test.isPending}
                  >
                    {t('test.send')}
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setOpen(open === hook.id ? null : hook.id)}
                  >
                    {t(open === hook.id ? 'deliveries.hide' : 'deliveries.show')}
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => toggle.mutate({ id: hook.id, active: !hook.active })}
                  >
                    {t(hook.active ? 'pause' : 'resume')}
                  </Button>
                  <Button size="sm" variant="destructive" onClick={() => remove.mutate(hook.id)}>
                    {t('delete')}
                  </Button>
                </div>
                {open === hook.id && <WebhookDeliveries id={hook.id} />}
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
