import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { ZSupportMail } from '@air/shared/schemas/support';
import { errorText } from '@/components/form/error-text';
import type { TFormFields } from '@/components/form/types';
import { useSchemaForm, type TFieldError } from '@/components/form/use-form';
import { useFormSubmit } from '@/components/form/use-submit';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { answerMessage } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import { useSession } from '@/lib/session';
import { loadUtilityConfig } from '@/lib/utility-config';

const UTILITY_CONFIG_QUERY = {
  queryKey: ['utility-config'],
  queryFn: loadUtilityConfig,
  staleTime: Infinity,
};

/**
 * The support card's introduction. It promises an answer and a copy by mail, so it shows only
 * once the server says a support address is set up (without one, the form says so instead).
 */
export function SupportIntro({ className }: { className?: string }) {
  const { t } = useTranslation('help');
  const config = useQuery(UTILITY_CONFIG_QUERY);
  if (!config.data?.support_configured) return null;
  return <p className={className}>{t('support.intro')}</p>;
}

/**
 * The support contact (spec section 5): name and email prefilled from the user, message required,
 * on the one form engine with the server's schema (ZSupportMail). POST /api/utility/mail sends it
 * to the support address with a copy to the user.
 */
export function SupportForm() {
  const { t } = useTranslation('help');
  const { user } = useSession();
  const handleError = useErrorHandler();
  const config = useQuery(UTILITY_CONFIG_QUERY);
  const [fields] = React.useState<TFormFields>(() => ({
    name: { type: 'text', value: user?.name ?? '' },
    email: { type: 'email', value: user?.email ?? '' },
    template: { type: 'hidden', value: 'help' },
    message: { type: 'textarea' },
  }));
  const form = useSchemaForm(fields, ZSupportMail);
  const send = useFormSubmit(form, {
    fields,
    call: 'POST /api/utility/mail',
    onError: handleError,
    onSuccess: (res) => {
      if (!answerMessage(res)) toast({ variant: 'success', title: t('support.sent') });
      form.resetField('message');
    },
  });
  const sending = form.formState.isSubmitting;
  const errors = form.formState.errors as Record<string, TFieldError | undefined>;
  const labels: Record<string, string> = {
    name: t('support.name'),
    email: t('support.email'),
    message: t('support.message'),
  };
  const errorOf = (id: string) => errorText(t, errors[id], labels[id]);

  if (config.data && !config.data.support_configured) {
    return (
      <p role="note" className="rounded-md border bg-muted/50 p-3 text-sm">
        {t('support.notConfigured')}
      </p>
    );
  }

  const field = (id: string, control: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`support-${id}`}>{labels[id]}</Label>
      {control}
      {errorOf(id) && (
        <p id={`support-${id}-error`} className="text-sm text-destructive">
          {errorOf(id)}
        </p>
      )}
    </div>
  );
  return (
    <form
      noValidate
      onSubmit={(e) => void form.handleSubmit(send)(e)}
      className="grid gap-4"
      aria-label={t('support.title')}
      aria-busy={sending || undefined}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {field(
          'name',
          <Input id="support-name" aria-invalid={Boolean(errors.name)} {...form.register('name')} />,
        )}
        {field(
          'email',
          <Input
            id="support-email"
            type="email"
            aria-invalid={Boolean(errors.email)}
            {...form.register('email')}
          />,
        )}
      </div>
      {field(
        'message',
        <Textarea
          id="support-message"
          rows={5}
          aria-invalid={Boolean(errors.message)}
          aria-describedby={errors.message ? 'support-message-error' : undefined}
          {...form.register('message')}
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
