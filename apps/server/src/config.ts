import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';
import { OTEL_ENV, tracingConfigOf, type TTracingConfig } from './lib/otel-env';

/**
 * The server's configuration: one zod schema over the environment (server contract section 1),
 * parsed once at boot. `loadConfig` throws a ConfigError whose message holds one line per bad
 * variable, each starting with the variable's name.
 */

export class ConfigError extends Error {
  constructor(public readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'ConfigError';
  }
}

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const booleanString = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .transform((value) => ['true', '1', 'yes'].includes(value))
    .optional(),
);
const port = z.preprocess(
  emptyToUndefined,
  z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
);
const milliseconds = (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(0, 'must be at least 0')
      .max(600_000, 'must be at most 600000')
      .default(fallback),
  );
/** TRUST_PROXY's value compiles: a boolean word, a hop count, or addresses, CIDR ranges and names. */
function isTrustProxySetting(value: string): boolean {
  const setting = parseTrustProxy(value);
  if (typeof setting !== 'string') return true;
  try {
    proxyAddr.compile(setting.split(',').map((entry) => entry.trim()));
    return true;
  } catch {
    return false;
  }
}

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const ZEnv = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z
      .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
      .default('development'),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .optional(),
  ),
  PORT: port,
  HOST: z.preprocess(emptyToUndefined, z.string().min(1).default('127.0.0.1')),
  APP_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).optional(),
  ),
  SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().min(3).default('AIR <no-reply@air.local>')),
  PLATFORM_FEE_PERCENT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(100).default(10)),
  // Minor units: a provider's balance under it carries over to the next month's payout.
  PAYOUT_MINIMUM: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(100_000_000).default(1000),
  ),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email({ error: 'must be an email address' }).optional()),
  INVOICE_SELLER: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(1000, 'must be at most 1000 characters')
      .regex(/^[^\r\n]+$/, 'must be one line, its parts separated by |')
      .optional(),
  ),
  DOCS_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  ),
  BILLING_PROVIDER: z.preprocess(
    emptyToUndefined,
    z.enum(['local', 'stripe'], { error: 'must be local or stripe' }).default('local'),
  ),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  PLANS_FILE: optionalString,
  UPSTREAM_ALLOW_PRIVATE: booleanString,
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\w.:/,\s-]+$/, 'must be true, false, a hop count or a list of addresses')
      // The list as Fastify compiles it at start-up: refused here, before anything is opened.
      .refine(isTrustProxySetting, 'must be true, false, a hop count or a list of addresses or ranges')
      .optional(),
  ),
  GATEWAY_TIMEOUT_MS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(1, 'must be at least 1')
      .max(3_600_000, 'must be at most 3600000')
      .default(120_000),
  ),
  SHUTDOWN_DELAY_MS: milliseconds(0),
  SHUTDOWN_TIMEOUT_MS: milliseconds(10_000),
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .max(512, 'must be at most 512 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
  ),
  LOG_GATEWAY_CALLS: booleanString,
  INSTANCE_NAME: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores')
      .optional(),
  ),
  ...OTEL_ENV,
});

export interface TOidcProvider {
  /** Lower-case NAME from OIDC_<NAME>_ISSUER, used in URLs (`/api/auth/social/google`). */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface TConfig {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  port: number;
  host: string;
  appUrl: string;
  /** Absolute path. */
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  secret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where support-form messages go; unset: the form answers that support is not configured. */
  supportEmail: string | undefined;
  /**
   * The seller block of invoice PDFs, one entry a printed line: the seller's name, postal address
   * and billing address (INVOICE_SELLER, split at `|`); by default AIR, APP_URL and SUPPORT_EMAIL.
   */
  invoiceSeller: string[];
  /** The platform's share of marketplace charges, in percent (0-100, default 10). */
  platformFeePercent: number;
  /** PAYOUT_MINIMUM (minor units): balances under it carry over to the next month's payout. */
  payoutMinimum: number;
  /** The side navigation's Docs link; unset: the OpenAPI reference at /api/docs. */
  docsUrl: string | undefined;
  billing:
    | { provider: 'local' }
    | { provider: 'stripe'; secretKey: string; publishableKey: string; webhookSecret: string };
  oidcProviders: TOidcProvider[];
  /** Absolute path of the plans file in use. */
  plansFile: string;
  upstreamAllowPrivate: boolean;
  gatewayTimeoutMs: number;
  /**
   * On SIGTERM: how long `/healthz` answers 503 `draining` (while requests are still served) so a
   * balancer stops sending, before the server stops accepting (SHUTDOWN_DELAY_MS).
   */
  shutdownDelayMs: number;
  /** Then how long in-flight calls and streams may take before their connections are cut. */
  shutdownTimeoutMs: number;
  /** LOG_GATEWAY_CALLS: one `info` line per gateway call (ids and figures, never content). */
  logGatewayCalls: boolean;
  /** Named in every answer's `x-air-instance` header when set (which instance behind a balancer). */
  instanceName: string | undefined;
  /**
   * `/metrics` answers a caller on this machine that no proxy forwarded, or one sending
   * `Authorization: Bearer <METRICS_TOKEN>` when it is set; nobody else.
   */
  metricsToken: string | undefined;
  /**
   * Fastify's `trustProxy`: which proxies may set X-Forwarded-For (the client IP behind a load
   * balancer). `false` (the default) uses the socket's address.
   */
  trustProxy: boolean | number | string;
  /** OpenTelemetry's OTEL_* variables (lib/otel-env.ts); null: tracing off, nothing loaded. */
  tracing: TTracingConfig | null;
}

/** TRUST_PROXY: `true`/`false`, a hop count, or a comma-separated list of addresses / CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined) return false;
  const trimmed = value.trim().toLowerCase();
  if (['false', 'no', 'off'].includes(trimmed)) return false;
  if (['true', 'yes', 'on'].includes(trimmed)) return true;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return value.trim();
}

/**
 * INVOICE_SELLER split into its printed lines; unset, the product's name, its address on the web
 * and the support address when one is set (never the mail sender, a no-reply address).
 */
function invoiceSellerOf(
  value: string | undefined,
  appUrl: string,
  supportEmail: string | undefined,
): string[] {
  if (value) {
    const lines = value
      .split('|')
      .map((line) => line.trim())
      .filter(Boolean);
    if (lines.length > 0) return lines;
  }
  return ['AIR', appUrl, ...(supportEmail ? [supportEmail] : [])];
}

export const BUILT_IN_PLANS_FILE = path.join(import.meta.dirname, 'modules', 'billing', 'plans.json');

const OIDC_PATTERN = /^OIDC_([A-Z0-9]+)_(ISSUER|CLIENT_ID|CLIENT_SECRET)$/;

function collectOidcProviders(env: Record<string, string | undefined>, errors: string[]): TOidcProvider[] {
  const byName = new Map<string, Partial<Record<'ISSUER' | 'CLIENT_ID' | 'CLIENT_SECRET', string>>>();
  for (const [key, value] of Object.entries(env)) {
    const match = OIDC_PATTERN.exec(key);
    if (!match || !value) continue;
    // The pattern's two groups: the provider's name and which of its three variables this is.
    const name = match[1]!;
    const part = match[2] as 'ISSUER' | 'CLIENT_ID' | 'CLIENT_SECRET';
    byName.set(name, { ...byName.get(name), [part]: value });
  }
  const providers: TOidcProvider[] = [];
  for (const [name, parts] of [...byName.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    let ok = true;
    for (const part of ['ISSUER', 'CLIENT_ID', 'CLIENT_SECRET'] as const) {
      if (!parts[part]) {
        errors.push(`OIDC_${name}_${part}: is required when other OIDC_${name}_* variables are set`);
        ok = false;
      }
    }
    if (parts.ISSUER && !httpUrl.safeParse(parts.ISSUER).success) {
      errors.push(`OIDC_${name}_ISSUER: must be an http(s) URL`);
      ok = false;
    }
    if (ok) {
      providers.push({
        name: name.toLowerCase(),
        issuer: parts.ISSUER!,
        clientId: parts.CLIENT_ID!,
        clientSecret: parts.CLIENT_SECRET!,
      });
    }
  }
  return providers;
}

/**
 * Reads `DATA_DIR/secret`, creating it (mode 0600) with 48 random bytes the first time, so a
 * developer machine needs no configuration and tokens survive restarts.
 */
export function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export interface TLoadConfigOptions {
  /** Base for relative paths (DATA_DIR, PLANS_FILE). Defaults to the process's working directory. */
  cwd?: string;
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: TLoadConfigOptions = {},
): TConfig {
  const cwd = options.cwd ?? process.cwd();
  const errors: string[] = [];
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? 'environment');
      if (seen.has(name)) continue;
      seen.add(name);
      errors.push(`${name}: ${issue.message}`);
    }
  }
  const oidcProviders = collectOidcProviders(env, errors);
  if (!parsed.success) throw new ConfigError(errors);
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';

  if (isProduction && !e.SECRET) errors.push('SECRET: is required when NODE_ENV=production');
  // The embedded database is one per process: instances behind a balancer would each count alone.
  if (isProduction && !e.DATABASE_URL) {
    errors.push(
      'DATABASE_URL: is required when NODE_ENV=production (the embedded database serves one process)',
    );
  }

  let billing: TConfig['billing'] = { provider: 'local' };
  if (e.BILLING_PROVIDER === 'stripe') {
    const missing = (
      ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const
    ).filter((k) => !e[k]);
    for (const name of missing) errors.push(`${name}: is required when BILLING_PROVIDER=stripe`);
    if (missing.length === 0) {
      billing = {
        provider: 'stripe',
        secretKey: e.STRIPE_SECRET_KEY!,
        publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
        webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
      };
    }
  }

  const plansFile = e.PLANS_FILE ? path.resolve(cwd, e.PLANS_FILE) : BUILT_IN_PLANS_FILE;
  if (e.PLANS_FILE && !existsSync(plansFile)) errors.push(`PLANS_FILE: file not found: ${plansFile}`);
  const tracing = tracingConfigOf(e, e.INSTANCE_NAME, errors);

  if (errors.length > 0) throw new ConfigError(errors);

  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const hostForUrl =
    e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST;
  const appUrl = (e.APP_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/+$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    port: e.PORT,
    host: e.HOST,
    appUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    secret: e.SECRET ?? readOrCreateSecret(dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    invoiceSeller: invoiceSellerOf(e.INVOICE_SELLER, appUrl, e.SUPPORT_EMAIL),
    platformFeePercent: e.PLATFORM_FEE_PERCENT,
    payoutMinimum: e.PAYOUT_MINIMUM,
    docsUrl: e.DOCS_URL,
    billing,
    oidcProviders,
    plansFile,
    upstreamAllowPrivate: e.UPSTREAM_ALLOW_PRIVATE ?? !isProduction,
    gatewayTimeoutMs: e.GATEWAY_TIMEOUT_MS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    logGatewayCalls: e.LOG_GATEWAY_CALLS ?? false,
    instanceName: e.INSTANCE_NAME,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    tracing,
  };
}
