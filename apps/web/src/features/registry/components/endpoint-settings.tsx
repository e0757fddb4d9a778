import type { TBodyOf } from '@air/shared/api';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Plus, Trash2 } from 'lucide-react';
import {
  MASKED_HEADER_VALUE,
  MAX_UPSTREAM_HEADERS,
  RESERVED_HEADER_NAMES,
  ZAiEndpointConfigInput,
} from '@air/shared/schemas/aiendpoint';
import { errorText } from '@/components/form/error-text';
import { fieldErrors } from '@/components/form/schema-validation';
import type { TFormFields } from '@/components/form/types';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError, call } from '@/lib/api';
import { useErrorHandler } from '@/lib/error-handler';
import type { TAiEndpoint } from '../endpoint-types';

interface THeaderRow {
  key: number;
  name: string;
  value: string;
  /** The name the server knows it by; a rename removes the old one. */
  storedName: string | null;
}

let nextKey = 0;
const rowsFrom = (headers: Record<string, string> | undefined): THeaderRow[] =>
  Object.entries(headers ?? {}).map(([name, value]) => ({ key: nextKey++, name, value, storedName: name }));

/**
 * The upstream headers map for PATCH config: a value still equal to the mask keeps the stored
 * secret (the server's rule), removed or renamed stored headers are sent as null.
 */
export function headersPatch(
  rows: THeaderRow[],
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

const SETTINGS_FIELDS: TFormFields = {
  headers: { type: 'hidden' },
  upstream_model: { type: 'text' },
  timeout_ms: { type: 'number' },
};

/** The Settings tab: extra upstream headers, upstream model name and timeout (PATCH config). */
export function EndpointSettings({
  endpoint,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const handleError = useErrorHandler();
  const stored = endpoint.config.headers ?? {};
  const [rows, setRows] = React.useState<THeaderRow[]>(() => rowsFrom(stored));
  const [model, setModel] = React.useState(endpoint.config.upstream_model ?? '');
  const [timeout, setTimeoutMs] = React.useState(
    endpoint.config.timeout_ms == null ? '' : String(endpoint.config.timeout_ms),
  );
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const [saving, setSaving] = React.useState(false);

  /**
   * The server's rules for the config (ZAiEndpointConfigInput: header names and values, timeout
   * bounds) with its message keys, plus the gateway's reserved header names (refused by the server
   * with `validation.header_reserved`) and a value typed without a name (it would be dropped).
   */
  function validate(config: TConfigPatch): Record<string, string> {
    const out: Record<string, string> = {};
    const rowOf = (name: string) => rows.find((row) => row.name.trim() === name);
    for (const row of rows) {
      const name = row.name.trim();
      if (!name && row.value) out[`header-${row.key}`] = t('form:validation.header_name');
      else if ((RESERVED_HEADER_NAMES as readonly string[]).includes(name.toLowerCase()))
        out[`header-${row.key}`] = t('form:validation.header_reserved', { name });
    }
    const found = fieldErrors(ZAiEndpointConfigInput, SETTINGS_FIELDS, config);
    if (found.headers) {
      const row = rowOf(found.headers.field.split('.').slice(1).join('.'));
      out[row ? `header-${row.key}` : 'form'] = errorText(t, found.headers, t('settings.headers')) ?? '';
    }
    if (found.timeout_ms) out.timeout = errorText(t, found.timeout_ms, t('settings.timeout')) ?? '';
    return out;
  }

  async function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const config: TConfigPatch = {
      headers: headersPatch(rows, stored),
      upstream_model: model.trim() || null,
      timeout_ms: timeout.trim() ? Number(timeout) : null,
    };
    const found = validate(config);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await call('PATCH /api/aiendpoint/:id', { params: { id: endpoint.id }, body: { config } });
      const headers = Object.fromEntries(
        Object.entries(config.headers)
          .filter(([, v]) => v !== null)
          .map(([k]) => [k, MASKED_HEADER_VALUE]),
      );
      // What the server now holds: every value masked again.
      setRows(rowsFrom(headers));
      onSaved({
        config: {
          ...endpoint.config,
          headers,
          upstream_model: config.upstream_model,
          timeout_ms: config.timeout_ms,
        },
      });
      toast({ variant: 'success', title: t('detail.saved') });
    } catch (error) {
      const body = error instanceof ApiError && typeof error.body === 'object' ? error.body : null;
      if (body?.message && body.inputError) setErrors({ form: body.message });
      else handleError(error);
    } finally {
      setSaving(false);
    }
  }

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
            {rows.map((row, index) => (
              <div key={row.key} className="space-y-1">
                <div className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[1fr_1fr_auto]">
                  <Input
                    aria-label={`${t('settings.headerName')} ${index + 1}`}
                    placeholder={t('settings.headerName')}
                    value={row.name}
                    autoComplete="off"
                    aria-invalid={errors[`header-${row.key}`] ? true : undefined}
                    onChange={(e) =>
                      setRows((rs) => rs.map((r) => (r.key === row.key ? { ...r, name: e.target.value } : r)))
                    }
                  />
                  <Input
                    aria-label={`${t('settings.headerValue')} ${index + 1}`}
                    placeholder={t('settings.headerValue')}
                    className="col-span-1 row-start-2 sm:row-start-auto"
                    value={row.value}
                    autoComplete="off"
                    // Focusing a masked value clears it: typing replaces the secret, it is never shown.
                    onFocus={() =>
                      row.value === MASKED_HEADER_VALUE &&
                      setRows((rs) => rs.map((r) => (r.key === row.key ? { ...r, value: '' } : r)))
                    }
                    onBlur={() =>
                      row.value === '' &&
                      row.storedName === row.name.trim() &&
                      setRows((rs) =>
                        rs.map((r) => (r.key === row.key ? { ...r, value: MASKED_HEADER_VALUE } : r)),
                      )
                    }
                    onChange={(e) =>
                      setRows((rs) =>
                        rs.map((r) => (r.key === row.key ? { ...r, value: e.target.value } : r)),
                      )
                    }
                  />
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="row-span-2 sm:row-span-1"
                    aria-label={t('settings.removeHeader', { name: row.name || index + 1 })}
                    onClick={() => setRows((rs) => rs.filter((r) => r.key !== row.key))}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
                {errors[`header-${row.key}`] && (
                  <p className="text-sm text-destructive">{errors[`header-${row.key}`]}</p>
                )}
              </div>
            ))}
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={rows.length >= MAX_UPSTREAM_HEADERS}
              onClick={() =>
                setRows((rs) => [...rs, { key: nextKey++, name: '', value: '', storedName: null }])
              }
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
                value={model}
                maxLength={200}
                aria-describedby="upstream-model-help"
                onChange={(e) => setModel(e.target.value)}
              />
              <p id="upstream-model-help" className="text-xs text-muted-foreground">
                {t('settings.modelHelp')}
              </p>
            </div>
            <div className="space-y-2">
              <Label htmlFor="upstream-timeout">{t('settings.timeout')}</Label>
              <Input
                id="upstream-timeout"
                inputMode="numeric"
                value={timeout}
                aria-invalid={errors.timeout ? true : undefined}
                aria-describedby="upstream-timeout-help"
                onChange={(e) => setTimeoutMs(e.target.value)}
              />
              <p id="upstream-timeout-help" className="text-xs text-muted-foreground">
                {errors.timeout ? (
                  <span className="text-destructive">{errors.timeout}</span>
                ) : (
                  t('settings.timeoutHelp')
                )}
              </p>
            </div>
          </div>
          {errors.form && (
            <p role="alert" className="text-sm text-destructive">
              {errors.form}
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
