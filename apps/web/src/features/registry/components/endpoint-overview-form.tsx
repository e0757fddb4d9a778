import * as React from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ZUpdateAiEndpoint } from '@air/shared/schemas/aiendpoint';
import { errorText } from '@/components/form/error-text';
import type { TFormFields } from '@/components/form/types';
import { useSchemaForm, type TFieldError } from '@/components/form/use-form';
import { useFormSubmit } from '@/components/form/use-submit';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { answerMessage } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

// tiptap is the heaviest piece of the console: only this page loads it, and only when it renders.
const RichTextEditor = React.lazy(() => import('./rich-text-editor'));

/**
 * The Overview form: required name and the rich-text description (PATCH name, description), on
 * the one form engine with the server's schema (ZUpdateAiEndpoint).
 */
export function EndpointOverviewForm({
  endpoint,
  readOnly,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  readOnly: boolean;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const [fields] = React.useState<TFormFields>(() => ({
    name: { type: 'text', value: endpoint.name },
    description: { type: 'textarea', value: endpoint.config.description ?? '' },
  }));
  const form = useSchemaForm(fields, ZUpdateAiEndpoint);
  const send = useFormSubmit(form, {
    fields,
    call: 'PATCH /api/aiendpoint/:id',
    params: { id: endpoint.id },
    onError: handleError,
    onSuccess: (res, sent) => {
      if (!answerMessage(res)) toast({ variant: 'success', title: t('detail.saved') });
      const description = String(sent.description ?? '');
      onSaved({ name: String(sent.name), config: { ...endpoint.config, description } });
    },
  });
  const saving = form.formState.isSubmitting;
  const nameError = errorText(t, form.formState.errors.name as TFieldError | undefined, t('detail.name'));
  const onSubmit = form.handleSubmit((values) => send({ ...values, name: String(values.name).trim() }));

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4" aria-busy={saving || undefined}>
      <div className="space-y-2">
        <Label htmlFor="endpoint-name">{t('detail.name')}</Label>
        <Input
          id="endpoint-name"
          readOnly={readOnly}
          required
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? 'endpoint-name-error' : undefined}
          {...form.register('name')}
        />
        {nameError && (
          <p id="endpoint-name-error" className="text-sm text-destructive">
            {nameError}
          </p>
        )}
      </div>
      <div className="space-y-2">
        <Label id="endpoint-description-label" htmlFor="endpoint-description">
          {t('detail.description')}
        </Label>
        <React.Suspense
          fallback={
            <div className="min-h-40 rounded-md border p-3 text-sm text-muted-foreground">
              {t('editor.loading')}
            </div>
          }
        >
          <Controller
            name="description"
            control={form.control}
            render={({ field }) => (
              <RichTextEditor
                id="endpoint-description"
                labelledBy="endpoint-description-label"
                value={String(field.value ?? '')}
                onChange={field.onChange}
                readOnly={readOnly}
              />
            )}
          />
        </React.Suspense>
      </div>
      {!readOnly && (
        <Button type="submit" loading={saving}>
          {t('detail.save')}
        </Button>
      )}
    </form>
  );
}
