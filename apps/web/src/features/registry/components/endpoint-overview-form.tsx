import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ZUpdateAiEndpoint } from '@air/shared/schemas/aiendpoint';
import { errorText } from '@/components/form/error-text';
import { fieldErrors } from '@/components/form/schema-validation';
import type { TFormFields } from '@/components/form/types';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError, call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

// tiptap is the heaviest piece of the console: only this page loads it, and only when it renders.
const RichTextEditor = React.lazy(() => import('./rich-text-editor'));

const OVERVIEW_FIELDS: TFormFields = { name: { type: 'text' }, description: { type: 'textarea' } };

/** The Overview form: required name and the rich-text description (PATCH name, description). */
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
  const [name, setName] = React.useState(endpoint.name);
  const [description, setDescription] = React.useState(endpoint.config.description ?? '');
  const [nameError, setNameError] = React.useState<string | null>(null);
  const [saving, setSaving] = React.useState(false);

  /** The server's own rule for the name (ZUpdateAiEndpoint), with its message. */
  function nameProblem(value: string): string | null {
    const found = fieldErrors(ZUpdateAiEndpoint, OVERVIEW_FIELDS, { name: value, description });
    return errorText(t, found.name, t('detail.name')) ?? null;
  }

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const problem = nameProblem(name);
    if (problem) return setNameError(problem);
    setSaving(true);
    try {
      const res = await call('PATCH /api/aiendpoint/:id', {
        params: { id: endpoint.id },
        body: { name: name.trim(), description },
      });
      toast({ variant: 'success', title: res.message ?? t('detail.saved') });
      onSaved({ name: name.trim(), config: { ...endpoint.config, description } });
    } catch (error) {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      if (body?.inputError === 'name' && body.message) setNameError(body.message);
      else handleError(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4" aria-busy={saving || undefined}>
      <div className="space-y-2">
        <Label htmlFor="endpoint-name">{t('detail.name')}</Label>
        <Input
          id="endpoint-name"
          value={name}
          readOnly={readOnly}
          required
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? 'endpoint-name-error' : undefined}
          onChange={(e) => {
            setName(e.target.value);
            if (nameError) setNameError(nameProblem(e.target.value));
          }}
          onBlur={() => setNameError(nameProblem(name))}
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
          <RichTextEditor
            id="endpoint-description"
            labelledBy="endpoint-description-label"
            value={description}
            onChange={setDescription}
            readOnly={readOnly}
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
