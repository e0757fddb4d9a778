import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WEBHOOK_EVENTS, type TCreatedWebhook, type TWebhookEvent } from '@air/shared/schemas/webhook';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { createWebhook, webhooksQuery } from '../webhooks-api';

/** The form's field errors: the server's message on the field it names (`events.0` is `events`). */
function fieldOf(error: unknown): { field: 'url' | 'events'; message: string } | null {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.body || typeof error.body !== 'object')
    return null;
  const input = String(error.body.inputError ?? '');
  const field = input.startsWith('events') ? 'events' : input === 'url' ? 'url' : null;
  return field ? { field, message: String(error.body.message ?? '') } : null;
}

/** Registers a webhook: its URL and the events it takes; answers the signing secret, shown once here. */
export function WebhookCreate() {
  const { t } = useTranslation('webhooks');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<TWebhookEvent[]>([]);
  const [created, setCreated] = useState<TCreatedWebhook | null>(null);
  const [invalid, setInvalid] = useState<{ field: 'url' | 'events'; message: string } | null>(null);

  const mutation = useMutation({
    mutationFn: () => createWebhook({ url, events }),
    onSuccess: async (answer) => {
      setCreated(answer.data);
      setUrl('');
      setEvents([]);
      setInvalid(null);
      await queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey });
    },
    onError: (error) => {
      const onField = fieldOf(error);
      if (onField) setInvalid(onField);
      else handleError(error);
    },
  });

  const toggle = (event: TWebhookEvent, on: boolean) =>
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };

  return (
    <Card className="mb-6">
      <CardHeader>
        <CardTitle>{t('create.title')}</CardTitle>
        <CardDescription>{t('create.intro')}</CardDescription>
      </CardHeader>
      <CardContent>
        {created && (
          <div
            role="status"
            className="mb-4 rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
          >
            <p className="mb-2 font-medium">{t('create.secretOnce')}</p>
            <div className="flex flex-wrap items-center gap-2">
              <code
                data-testid="webhook-secret"
                className="break-all rounded bg-muted px-2 py-1 font-mono text-xs"
              >
                {created.secret}
              </code>
              <CopyButton text={created.secret} size="sm" variant="outline" />
            </div>
          </div>
        )}
        <form onSubmit={submit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="webhook-url">{t('create.url')}</Label>
            <Input
              id="webhook-url"
              type="url"
              value={url}
              placeholder="https://hooks.example.com/air"
              aria-invalid={invalid?.field === 'url'}
              aria-describedby={invalid?.field === 'url' ? 'webhook-url-error' : undefined}
              onChange={(e) => setUrl(e.target.value)}
            />
            {invalid?.field === 'url' && (
              <p id="webhook-url-error" className="text-sm text-destructive">
                {invalid.message}
              </p>
            )}
          </div>
          <fieldset className="space-y-2">
            <legend className="mb-2 text-sm font-medium">{t('create.events')}</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {WEBHOOK_EVENTS.map((event) => (
                <label key={event} className="flex items-start gap-2 text-sm">
                  <Checkbox
                    checked={events.includes(event)}
                    onCheckedChange={(on) => toggle(event, on === true)}
                    aria-label={event}
                  />
                  <span>
                    <span className="font-mono text-xs">{event}</span>
                    <span className="block text-muted-foreground">
                      {t(`event.${event.replace('.', '_')}`)}
                    </span>
                  </span>
                </label>
              ))}
            </div>
            {invalid?.field === 'events' && <p className="text-sm text-destructive">{invalid.message}</p>}
          </fieldset>
          <Button type="submit" disabled={mutation.isPending}>
            {t('create.submit')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
