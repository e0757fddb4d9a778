import type { TBodyOf } from '@air/shared/api';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { get, useFieldArray } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { amountToMicros, microsToAmount, MICROS_PER_UNIT, PRICE_MAX_MICROS } from '@air/shared/schemas/price';
import { errorText } from '@/components/form/error-text';
import type { TFormValues } from '@/components/form/types';
import { FORM_ERROR } from '@/components/form/use-body-form';
import type { TFieldError } from '@/components/form/use-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { call } from '@/lib/api';
import type { TAiEndpoint } from '../endpoint-types';
import { useEndpointConfigForm } from './use-endpoint-config-form';
import { mcpToolsKey } from './mcp-tools';

const FIELDS = ['per_call', 'per_1m_input_tokens', 'per_1m_output_tokens'] as const;
type TField = (typeof FIELDS)[number];

/** Micros as the amount typed (`2000` → `0.002`); empty for 0. */
const toText = (micros: number | undefined) => (micros ? microsToAmount(micros) : '');

/** A per-tool price row (an MCP endpoint's, decision 063): the tool's name and the amount typed. */
interface TToolPriceRow {
  tool: string;
  amount: string;
}

type TPriceValues = Record<TField, string> & { tools: TToolPriceRow[] };

/**
 * The PATCH body of a price: each amount in micros (an amount that does not read as one is sent
 * as typed, so the schema refuses it); all parts 0 is free (null). An MCP endpoint's body also
 * carries its per-tool prices, rows without a tool name left out (none: null).
 */
function priceBody(values: TPriceValues, mcp: boolean): TFormValues {
  const micros = Object.fromEntries(
    FIELDS.map((field) => [field, amountToMicros(values[field]) ?? values[field]]),
  ) as Record<TField, number | string>;
  const price = FIELDS.every((field) => micros[field] === 0) ? null : micros;
  if (!mcp) return { config: { price } };
  const rows = values.tools.filter((row) => row.tool.trim() !== '');
  const tools = Object.fromEntries(
    rows.map((row) => [row.tool.trim(), amountToMicros(row.amount) ?? row.amount]),
  );
  return { config: { price, tool_prices: rows.length > 0 ? tools : null } };
}

/**
 * `config.price.per_call` → `per_call`, `config.tool_prices.search` → the amount of search's row
 * (or its name, when the name is what was refused); any other path is the form's own message.
 */
function priceFieldOf(path: string, values: TPriceValues): string | undefined {
  const tool = /^config\.tool_prices\.(.+)$/.exec(path)?.[1];
  if (tool !== undefined) {
    const index = values.tools.findIndex((row) => row.tool.trim() === tool);
    return index < 0 ? undefined : `tools.${index}.amount`;
  }
  const field = /^config\.price\.(\w+)/.exec(path)?.[1];
  return FIELDS.find((name) => name === field);
}

/**
 * The Settings tab's price (contract 5a): what other accounts pay per call and per million input
 * and output tokens, in the billing currency; all empty is free. Saved as `config.price`. An MCP
 * endpoint is priced per tool call (contract 6d): one price per call, and per-tool prices that
 * replace it for their tools (`config.tool_prices`).
 */
export function EndpointPrice({
  endpoint,
  onSaved,
}: {
  endpoint: TAiEndpoint;
  onSaved: (patch: Partial<TAiEndpoint>) => void;
}) {
  const { t } = useTranslation('registry');
  const plans = useQuery({
    queryKey: ['account-plans'],
    queryFn: async () => (await call('GET /api/account/plans')).data,
  });
  const paid = plans.data?.plans.find((plan) => plan.price > 0) ?? plans.data?.plans[0];
  const currency = paid?.currency.code.toUpperCase() ?? 'USD';
  const price = endpoint.config.price;
  const mcp = endpoint.protocol === 'mcp';
  // A tool call has no tokens: an MCP endpoint's price is per call only.
  const fields = mcp ? (['per_call'] as const) : FIELDS;
  const { form, onSubmit, saving } = useEndpointConfigForm<TPriceValues>({
    endpoint,
    defaultValues: {
      per_call: toText(price?.per_call),
      per_1m_input_tokens: toText(price?.per_1m_input_tokens),
      per_1m_output_tokens: toText(price?.per_1m_output_tokens),
      tools: Object.entries(endpoint.config.tool_prices ?? {}).map(([tool, micros]) => ({
        tool,
        amount: microsToAmount(micros),
      })),
    },
    toBody: (values) => priceBody(values, mcp),
    fieldOf: priceFieldOf,
    onSuccess: (_res, sent) => {
      const config = (sent as TBodyOf<'PATCH /api/aiendpoint/:id'>).config;
      onSaved({
        config: {
          ...endpoint.config,
          price: config?.price ?? null,
          ...(mcp ? { tool_prices: config?.tool_prices ?? {} } : {}),
        },
      });
    },
  });
  const rows = useFieldArray({ control: form.control, name: 'tools' });
  // The server's tools, offered as names (the list the Overview tab shows, cached).
  const listed = useQuery({
    queryKey: mcpToolsKey(endpoint.id),
    enabled: mcp,
    queryFn: async () => (await call('GET /api/aiendpoint/:id/tools', { params: { id: endpoint.id } })).data,
  });
  const errors = form.formState.errors;
  // The schema decides what is refused; an amount field says it in its own words (the range).
  const errorOf = (slot: string) => {
    const error = get(errors, slot) as TFieldError | undefined;
    if (!error) return undefined;
    if (error.type === 'server' || slot === FORM_ERROR) return errorText(t, error, t('price.title'));
    return t('price.invalid', { max: (PRICE_MAX_MICROS / MICROS_PER_UNIT).toLocaleString() });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('price.title')}</CardTitle>
        <CardDescription>{t('price.description', { currency })}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={(e) => void onSubmit(e)}
          className="space-y-4"
          aria-busy={saving || undefined}
        >
          <div className="grid gap-4 sm:grid-cols-3">
            {fields.map((field) => (
              <div key={field} className="space-y-1">
                <Label htmlFor={`price-${field}`}>
                  {t(mcp ? 'price.per_tool_call' : `price.${field}`, { currency })}
                </Label>
                <Input
                  id={`price-${field}`}
                  inputMode="decimal"
                  placeholder="0.000000"
                  aria-invalid={errors[field] ? true : undefined}
                  aria-describedby={errors[field] ? `price-${field}-error` : undefined}
                  {...form.register(field)}
                />
                {errors[field] && (
                  <p id={`price-${field}-error`} className="text-xs text-destructive">
                    {errorOf(field)}
                  </p>
                )}
              </div>
            ))}
          </div>
          {mcp && (
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">{t('price.toolPrices')}</legend>
              <p className="text-xs text-muted-foreground">{t('price.toolPricesHelp', { currency })}</p>
              <datalist id="price-tool-names">
                {(listed.data?.tools ?? []).map((tool) => (
                  <option key={tool.name} value={tool.name} />
                ))}
              </datalist>
              {rows.fields.map((row, index) => (
                <div key={row.id} className="space-y-1">
                  <div className="grid grid-cols-[1fr_9rem_auto] gap-2">
                    <Input
                      aria-label={t('price.toolName', { n: index + 1 })}
                      list="price-tool-names"
                      autoComplete="off"
                      aria-invalid={get(errors, `tools.${index}.tool`) ? true : undefined}
                      {...form.register(`tools.${index}.tool`)}
                    />
                    <Input
                      aria-label={t('price.toolAmount', { n: index + 1, currency })}
                      inputMode="decimal"
                      placeholder="0.000000"
                      aria-invalid={get(errors, `tools.${index}.amount`) ? true : undefined}
                      {...form.register(`tools.${index}.amount`)}
                    />
                    <Button type="button" variant="ghost" size="icon" onClick={() => rows.remove(index)}>
                      <Trash2 aria-hidden="true" />
                      <span className="sr-only">{t('price.removeTool', { n: index + 1 })}</span>
                    </Button>
                  </div>
                  {(errorOf(`tools.${index}.amount`) ?? errorOf(`tools.${index}.tool`)) && (
                    <p className="text-xs text-destructive">
                      {errorOf(`tools.${index}.amount`) ?? errorOf(`tools.${index}.tool`)}
                    </p>
                  )}
                </div>
              ))}
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => rows.append({ tool: '', amount: '' })}
              >
                <Plus aria-hidden="true" />
                {t('price.addTool')}
              </Button>
            </fieldset>
          )}
          <p className="text-xs text-muted-foreground">{t('price.help')}</p>
          {errors[FORM_ERROR] && (
            <p role="alert" className="text-sm text-destructive">
              {errorOf(FORM_ERROR)}
            </p>
          )}
          <Button type="submit" disabled={saving}>
            {t('price.save')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
