import { z } from 'zod';

/**
 * OpenTelemetry's standard variables (the SDK specification's names), validated with the rest of
 * the configuration (config.ts spreads OTEL_ENV into its schema), so a bad value stops the start
 * with one line naming it. Tracing is off unless an OTLP endpoint is set (and the SDK is not
 * disabled): then spans go to it over OTLP/HTTP in protobuf, the specification's default.
 */

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** An HTTP header name (RFC 9110 token), and a value HTTP can carry (no control characters). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * `name=value,name=value` (the W3C Baggage form the specification uses, values percent-encoded),
 * or null when it is not. Never echoed in an error: a header's value is usually a secret.
 */
export function parseKeyValueList(
  value: string,
  names: RegExp,
  values: RegExp,
): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const entry of value.split(',')) {
    if (entry.trim() === '') continue;
    const at = entry.indexOf('=');
    if (at <= 0) return null;
    const name = entry.slice(0, at).trim();
    let decoded: string;
    try {
      decoded = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      return null;
    }
    if (!names.test(name) || !values.test(decoded)) return null;
    out[name] = decoded;
  }
  return out;
}

const headerList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .max(8192, 'must be at most 8192 characters')
    .refine((value) => parseKeyValueList(value, HEADER_NAME, HEADER_VALUE) !== null, {
      error: 'must be a comma-separated list of name=value headers (values percent-encoded)',
    })
    .optional(),
);

/** A resource attribute: a key of letters, digits, dots, dashes and underscores; a printable value. */
const ATTRIBUTE_KEY = /^[A-Za-z0-9._-]{1,255}$/;
const ATTRIBUTE_VALUE = /^[\x20-\x7e\u00a0-\uffff]{0,255}$/;

const otlpUrl = z.preprocess(
  emptyToUndefined,
  z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
);

/** OTLP/HTTP in protobuf is what AIR sends (grpc needs another transport; JSON is optional in the spec). */
const protocol = z.preprocess(
  emptyToUndefined,
  z
    .enum(['http/protobuf'], { error: 'must be http/protobuf (grpc and http/json are not supported)' })
    .optional(),
);

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TSamplerName = (typeof SAMPLERS)[number];

export const OTEL_ENV = {
  OTEL_SDK_DISABLED: z.preprocess(
    (value) => (typeof value === 'string' && value !== '' ? value.toLowerCase() : undefined),
    z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  ),
  OTEL_TRACES_EXPORTER: z.preprocess(
    emptyToUndefined,
    z.enum(['otlp', 'none'], { error: 'must be otlp or none' }).optional(),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpUrl,
  OTEL_EXPORTER_OTLP_HEADERS: headerList,
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: headerList,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
  OTEL_SERVICE_NAME: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(255, 'must be at most 255 characters')
      .regex(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/, 'must be printable ASCII, no spaces at either end')
      .optional(),
  ),
  OTEL_RESOURCE_ATTRIBUTES: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(8192, 'must be at most 8192 characters')
      .refine((value) => parseKeyValueList(value, ATTRIBUTE_KEY, ATTRIBUTE_VALUE) !== null, {
        error: 'must be a comma-separated list of key=value attributes (values percent-encoded)',
      })
      .optional(),
  ),
  OTEL_TRACES_SAMPLER: z.preprocess(
    emptyToUndefined,
    z.enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` }).optional(),
  ),
  OTEL_TRACES_SAMPLER_ARG: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a ratio between 0 and 1' })
      .min(0, 'must be a ratio between 0 and 1')
      .max(1, 'must be a ratio between 0 and 1')
      .optional(),
  ),
};

type TOtelEnv = { [K in keyof typeof OTEL_ENV]?: z.output<(typeof OTEL_ENV)[K]> };

/** Where and how spans are exported; the configuration holds null when tracing is off. */
export interface TTracingConfig {
  /** The OTLP/HTTP traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or the endpoint + `/v1/traces`). */
  tracesUrl: string;
  /** Sent with every export (an API key of the collector, usually). */
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: TSamplerName;
  /** The ratio of a `traceidratio` sampler (1 when unset). */
  samplerRatio: number;
}

/**
 * The tracing configuration the variables ask for, or null when tracing is off (no endpoint, the
 * SDK disabled, or the traces exporter `none`). `errors` receives a line per inconsistent variable.
 */
export function tracingConfigOf(
  e: TOtelEnv,
  instanceName: string | undefined,
  errors: string[],
): TTracingConfig | null {
  if (e.OTEL_TRACES_SAMPLER_ARG !== undefined && !(e.OTEL_TRACES_SAMPLER ?? '').endsWith('traceidratio'))
    errors.push(
      'OTEL_TRACES_SAMPLER_ARG: applies only when OTEL_TRACES_SAMPLER is traceidratio or parentbased_traceidratio',
    );
  if (e.OTEL_SDK_DISABLED === 'true' || e.OTEL_TRACES_EXPORTER === 'none') return null;
  const base = e.OTEL_EXPORTER_OTLP_ENDPOINT;
  // The signal's own URL is used as given; the general one gets the signal's path (the spec's rule).
  const tracesUrl =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : null);
  if (tracesUrl === null) return null;
  const headers = {
    ...parseKeyValueList(e.OTEL_EXPORTER_OTLP_HEADERS ?? '', HEADER_NAME, HEADER_VALUE),
    ...parseKeyValueList(e.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? '', HEADER_NAME, HEADER_VALUE),
  };
  const resourceAttributes: Record<string, string> = {
    ...(instanceName ? { 'service.instance.id': instanceName } : {}),
    ...parseKeyValueList(e.OTEL_RESOURCE_ATTRIBUTES ?? '', ATTRIBUTE_KEY, ATTRIBUTE_VALUE),
  };
  return {
    tracesUrl,
    headers,
    // OTEL_SERVICE_NAME wins over a service.name in OTEL_RESOURCE_ATTRIBUTES (the spec's rule).
    serviceName: e.OTEL_SERVICE_NAME ?? resourceAttributes['service.name'] ?? 'air',
    resourceAttributes,
    sampler: e.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on',
    samplerRatio: e.OTEL_TRACES_SAMPLER_ARG ?? 1,
  };
}
