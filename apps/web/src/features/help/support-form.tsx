import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { ZSupportMail } from '@air/shared/schemas/support';
import { errorText } from '@/components/form/error-text';
import { fieldErrors } from '@/components/form/schema-validation';
import type { TFormFields } from '@/components/form/types';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { ApiError, call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { useSession } from '@/lib/session';
import { loadUtilityConfig } from '@/lib/utility-config';

const UTILITY_CONFIG_QUERY = {
  queryKey: ['utility-config'],
  queryFn: loadUtilityConfig,
  staleTime: Infinity,
};

const SUPPORT_FIELDS: TFormFields = {
  name: { type: 'text' },
  email: { type: 'email' },
  template: { type: 'hidden' },
  message: { type: 'textarea' },
};

/**
 * The support contact (spec section 5): name and email prefilled from the user, message required.
 * POST /api/utility/mail sends it to the support address with a copy to the user.
 */
export function SupportForm() {
  const { t } = useTranslation('help');
  const { user } = useSession();
  const handleError = useErrorHandler();
  const config = useQuery(UTILITY_CONFIG_QUERY);
  const [name, setName] = React.useState(user?.name ?? '');
  const [email, setEmail] = React.useState(user?.email ?? '');
  const [message, setMessage] = React.useState('');
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [sending, setSending] = React.useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const values = { name, email, template: 'help' as const, message };
    // The server's own schema decides (ZSupportMail), with the same message keys.
    const invalid = fieldErrors(ZSupportMail, SUPPORT_FIELDS, values);
    const labels: Record<string, string> = {
      name: t('support.name'),
      email: t('support.email'),
      message: t('support.message'),
    };
    const found = Object.fromEntries(
      Object.entries(invalid).map(([key, error]) => [key, errorText(t, error, labels[key]) ?? '']),
    );
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSending(true);
    try {
      const res = await call('POST /api/utility/mail', { body: values });
      toast({ variant: 'success', title: res.message ?? t('support.sent') });
      setMessage('');
    } catch (error) {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      if (body?.inputError && body.message) setErrors({ [body.inputError]: body.message });
      else handleError(error);
    } finally {
      setSending(false);
    }
  }

  if (config.data && !config.data.support_configured) {
    return (
      <p role="note" className="rounded-md border bg-muted/50 p-3 text-sm">
        {t('support.notConfigured')}
      </p>
    );
  }

  const field = (id: string, label: string, control: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`support-${id}`}>{label}</Label>
      {control}
      {errors[id] && (
        <p id={`support-${id}-error`} className="text-sm text-destructive">
          {errors[id]}
        </p>
      )}
    </div>
  );
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4" aria-label={t('support.title')}>
      <div className="grid gap-4 sm:grid-cols-2">
        {field(
          'name',
          t('support.name'),
          <Input
            id="support-name"
            value={name}
            aria-invalid={Boolean(errors.name)}
            onChange={(e) => setName(e.target.value)}
          />,
        )}
        {field(
          'email',
          t('support.email'),
          <Input
            id="support-email"
            type="email"
            value={email}
            aria-invalid={Boolean(errors.email)}
            onChange={(e) => setEmail(e.target.value)}
          />,
        )}
      </div>
      {field(
        'message',
        t('support.message'),
        <Textarea
          id="support-message"
          rows={5}
          value={message}
          aria-invalid={Boolean(errors.message)}
          aria-describedby={errors.message ? 'support-message-error' : undefined}
          onChange={(e) => setMessage(e.target.value)}
        />,
      )}
      <div>
        <Button type="submit" disabled={sending}>
          {sending && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
          {t('support.send')}
        </Button>
      </div>
    </form>
  );
}
