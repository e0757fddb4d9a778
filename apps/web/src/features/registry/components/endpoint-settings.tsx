import type { TBodyOf } from '@air/shared/api';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Plus, Trash2 } from 'lucide-react';
import {
  MASKED_HEADER_VALUE,
  MAX_UPSTREAM_HEADERS,
  RESERVED_HEADER_NAMES,
} from '@air/shared/schemas/aiendpoint';
import type { TIssueMessage } from '@air/shared/validation';
import { errorText } from '@/components/form/error-text';
import { FORM_ERROR } from '@/components/form/use-body-form';
import type { TFieldError } from '@/components/form/use-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { TAiEndpoint } from '../endpoint-types';
import { useEndpointConfigForm } from './use-endpoint-config-form';

interface THeaderRow {
  name: string;
  value: string;
  /** The name the server knows it by; a rename removes the old one. */
  storedName: string | null;
}

interface TSettingsValues {
  headers: THeaderRow[];
  upstream_model: string;
  timeout: string;
  /** The model the endpoint serves (top-level `model_id`, contract 5b). */
  model_id: string;
}

const rowsFrom = (headers: Record<string, string> | undefined): THeaderRow[] =>
  Object.entries(headers ?? {}).map(([name, value]) => ({ name, value, storedName: name }));

/**
 * The upstream headers map for PATCH config: a value still equal to the mask keeps the stored
 * secret (the server's rule), removed or renamed stored headers are sent as null.
 */
export function headersPatch<R extends THeaderRow>(
  rows: readonly R[],
  stored: Record<string, string>,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const name of Object.keys(stored)) out[name] = null;
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) continue;
    // A masked value only means "keep" under the name it was stored with.
    if (row.value === MASKED_HEADER_VALUE && row.storedName !== name) continue;
    out[name] = row.value;
  }
  return out;
}

/** The `config` a settings save sends (`PATCH /api/aiendpoint/:id`), every field present. */
type TConfigPatch = Required<
  Pick<
    NonNullable<TBodyOf<'PATCH /api/aiendpoint/:id'>['config']>,
    'headers' | 'upstream_model' | 'timeout_ms'
  >
>;

function configOf(values: TSettingsValues, stored: Record<string, string>): TConfigPatch {
  const timeout = values.timeout.trim();
  return {
    headers: headersPatch(values.headers, stored),
    upstream_model: values.upstream_model.trim() || null,
    timeout_ms: timeout ? Number(timeout) : null,
  };
}

/** `config.headers.X-Key` → that header's row; `config.timeout_ms` → the timeout field. */
function settingsFieldOf(path: string, values: TSettingsValues): string | undefined {
  if (path === 'model_id') return 'model_id';
  if (path === 'config.timeout_ms') return 'timeout';
  if (path === 'config.upstream_model') return 'upstream_model';
  const header = /^config\.headers\.(.+)$/.exec(path)?.[1];
  const index = header === undefined ? -1 : values.headers.findIndex((row) => row.name.trim() === header);
  return index >= 0 ? `headers.${index}.name` : undefined;
}

/**
 * What the server refuses beyond the config schema: the gateway's reserved header names (refused
 * with `validation.header_reserved`); and a value typed without a name (it would be dropped).
 */
function headerIssues(values: TSettingsValues): Record<string, TIssueMessage> {
  const out: Record<string, TIssueMessage> = {};
  values.headers.forEach((row, index) => {
    const name = row.name.trim();
    const field = `headers.${index}.name`;
    if (!name && row.value) out[field] = { field, key: 'validation.header_name', params: {} };
    else if ((RESERVED_HEADER_NAMES as readonly string[]).includes(name.toLowerCase()))
      out[field] = { field, key: 'validation.header_reserved', params: { name } };
  });
  return out;
}

/** The Settings tab: extra upstream headers, upstream model name, timeout and the model served. */
export function EndpointSettings({
  endpoint,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const stored = endpoint.config.headers ?? {};
  // The server's rules for the config (ZUpdateAiEndpoint: header names and values, timeout
  // bounds) with its message keys, and the header rules above.
  const { form, onSubmit, saving } = useEndpointConfigForm<TSettingsValues>({
    endpoint,
    defaultValues: {
      headers: rowsFrom(stored),
      upstream_model: endpoint.config.upstream_model ?? '',
      timeout: endpoint.config.timeout_ms == null ? '' : String(endpoint.config.timeout_ms),
      model_id: endpoint.model_id ?? '',
    },
    toBody: (values) => ({ config: configOf(values, stored), model_id: values.model_id.trim() || null }),
    fieldOf: settingsFieldOf,
    extraIssues: headerIssues,
    onSuccess: (res, sent, form) => {
      const config = (sent as { config: TConfigPatch }).config;
      const headers = Object.fromEntries(
        Object.entries(config.headers)
          .filter(([, v]) => v !== null)
          .map(([k]) => [k, MASKED_HEADER_VALUE]),
      );
      // What the server now holds: every value masked again, the model id in its normalized form.
      const modelId = res.data?.model_id ?? null;
      form.reset({ ...form.getValues(), headers: rowsFrom(headers), model_id: modelId ?? '' });
      onSaved({
        model_id: modelId,
        config: {
          ...endpoint.config,
          headers,
          upstream_model: config.upstream_model,
          timeout_ms: config.timeout_ms,
        },
      });
    },
  });
  const rows = useFieldArray({ control: form.control, name: 'headers' });
  const errors = form.formState.errors;
  const headerError = (index: number) =>
    errorText(t, errors.headers?.[index]?.name as TFieldError | undefined, t('settings.headers'));
  const timeoutError = errorText(t, errors.timeout as TFieldError | undefined, t('settings.timeout'));
  const modelError = errorText(t, errors.upstream_model as TFieldError | undefined, t('settings.model'));
  const modelIdError = errorText(t, errors.model_id as TFieldError | undefined, t('settings.modelId'));
  const formError = errorText(
    t,
    (errors as Record<string, TFieldError | undefined>)[FORM_ERROR],
    t('settings.headers'),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('settings.title')}</CardTitle>
        <CardDescription>{t('settings.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={(e) => void onSubmit(e)}
          className="space-y-6"
          aria-busy={saving || undefined}
        >
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium">{t('settings.headers')}</legend>
            <p className="text-xs text-muted-foreground">{t('settings.headersHelp')}</p>
            {rows.fields.map((row, index) => {
              const error = headerError(index);
              const valueField = `headers.${index}.value` as const;
              const current = () => form.getValues(`headers.${index}`);
              return (
                <div key={row.id} className="space-y-1">
                  <div className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[1fr_1fr_auto]">
                    <Input
                      aria-label={`${t('settings.headerName')} ${index + 1}`}
                      placeholder={t('settings.headerName')}
                      autoComplete="off"
                      aria-invalid={error ? true : undefined}
                      {...form.register(`headers.${index}.name`)}
                    />
                    <Input
                      aria-label={`${t('settings.headerValue')} ${index + 1}`}
                      placeholder={t('settings.headerValue')}
                      className="col-span-1 row-start-2 sm:row-start-auto"
                      autoComplete="off"
                      // Focusing a masked value clears it: typing replaces the secret, it is never shown.
                      onFocus={() => current().value === MASKED_HEADER_VALUE && form.setValue(valueField, '')}
                      {...form.register(valueField, {
                        onBlur: () => {
                          const now = current();
                          if (now.value === '' && now.storedName === now.name.trim())
                            form.setValue(valueField, MASKED_HEADER_VALUE);
                        },
                      })}
                    />
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="row-span-2 sm:row-span-1"
                      aria-label={t('settings.removeHeader', {
                        name: form.watch(`headers.${index}.name`) || index + 1,
                      })}
                      onClick={() => rows.remove(index)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                  {error && <p className="text-sm text-destructive">{error}</p>}
                </div>
              );
            })}
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={rows.fields.length >= MAX_UPSTREAM_HEADERS}
              onClick={() => rows.append({ name: '', value: '', storedName: null }, { shouldFocus: false })}
            >
              <Plus aria-hidden="true" />
              {t('settings.addHeader')}
            </Button>
          </fieldset>

          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="upstream-model">{t('settings.model')}</Label>
              <Input
                id="upstream-model"
                maxLength={200}
                aria-invalid={modelError ? true : undefined}
                aria-describedby="upstream-model-help"
                {...form.register('upstream_model')}
              />
              <p id="upstream-model-help" className="text-xs text-muted-foreground">
                {modelError ? (
                  <span className="text-destructive">{modelError}</span>
                ) : (
                  t('settings.modelHelp')
                )}
              </p>
            </div>
            <div className="space-y-2">
              <Label htmlFor="served-model-id">{t('settings.modelId')}</Label>
              <Input
                id="served-model-id"
                maxLength={128}
                placeholder="meta-llama/llama-3.1-70b-instruct"
                aria-invalid={modelIdError ? true : undefined}
                aria-describedby="served-model-id-help"
                {...form.register('model_id')}
              />
              <p id="served-model-id-help" className="text-xs text-muted-foreground">
                {modelIdError ? (
                  <span className="text-destructive">{modelIdError}</span>
                ) : (
                  t('settings.modelIdHelp')
                )}
              </p>
            </div>
            <div className="space-y-2">
              <Label htmlFor="upstream-timeout">{t('settings.timeout')}</Label>
              <Input
                id="upstream-timeout"
                inputMode="numeric"
                aria-invalid={timeoutError ? true : undefined}
                aria-describedby="upstream-timeout-help"
                {...form.register('timeout')}
              />
              <p id="upstream-timeout-help" className="text-xs text-muted-foreground">
                {timeoutError ? (
                  <span className="text-destructive">{timeoutError}</span>
                ) : (
                  t('settings.timeoutHelp')
                )}
              </p>
            </div>
          </div>
          {formError && (
            <p role="alert" className="text-sm text-destructive">
              {formError}
            </p>
          )}
          <Button type="submit" loading={saving}>
            {t('settings.save')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
