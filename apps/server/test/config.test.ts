import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PLANS_FILE, ConfigError, loadConfig } from '../src/config';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'air-config-'));
const SECRET = 'x'.repeat(40);
const DATABASE_URL = 'postgres://air@db.example:5432/air';

function errorLines(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).lines;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives the documented defaults on an empty environment', () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      appUrl: 'http://127.0.0.1:3000',
      dataDir: dir,
      databaseUrl: undefined,
      billing: { provider: 'local' },
      oidcProviders: [],
      plansFile: BUILT_IN_PLANS_FILE,
      upstreamAllowPrivate: true,
      gatewayTimeoutMs: 120000,
      shutdownDelayMs: 0,
      shutdownTimeoutMs: 10000,
      instanceName: undefined,
      logLevel: 'info',
    });
  });

  it('reads the shutdown delay and deadline and the instance name, refusing bad ones', () => {
    expect(
      loadConfig({
        DATA_DIR: tmp(),
        SHUTDOWN_DELAY_MS: '3000',
        SHUTDOWN_TIMEOUT_MS: '20000',
        INSTANCE_NAME: 'air-1',
      }),
    ).toMatchObject({ shutdownDelayMs: 3000, shutdownTimeoutMs: 20000, instanceName: 'air-1' });
    const lines = errorLines({
      DATA_DIR: tmp(),
      SHUTDOWN_DELAY_MS: '-1',
      SHUTDOWN_TIMEOUT_MS: 'soon',
      INSTANCE_NAME: 'air 1\r\nx-evil: 1',
    });
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'SHUTDOWN_DELAY_MS',
      'SHUTDOWN_TIMEOUT_MS',
      'INSTANCE_NAME',
    ]);
  });

  it('reads METRICS_TOKEN, refusing a short one or one with spaces', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).metricsToken).toBeUndefined();
    const token = 'a-long-enough-metrics-token';
    expect(loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: token }).metricsToken).toBe(token);
    for (const bad of ['short', 'has a space in the middle of it']) {
      expect(errorLines({ DATA_DIR: tmp(), METRICS_TOKEN: bad })[0]).toMatch(/^METRICS_TOKEN: /);
    }
  });

  it('generates the secret once into DATA_DIR/secret with mode 0600 and reuses it', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir }).secret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dir }).secret).toBe(first);
  });

  it('uses SECRET when given and requires it and DATABASE_URL in production, one line each', () => {
    expect(loadConfig({ DATA_DIR: tmp(), SECRET }).secret).toBe(SECRET);
    expect(errorLines({ DATA_DIR: tmp(), NODE_ENV: 'production', DATABASE_URL })).toEqual([
      'SECRET: is required when NODE_ENV=production',
    ]);
    expect(errorLines({ DATA_DIR: tmp(), NODE_ENV: 'production', SECRET })).toEqual([
      'DATABASE_URL: is required when NODE_ENV=production (the embedded database serves one process)',
    ]);
    expect(errorLines({ DATA_DIR: tmp(), NODE_ENV: 'production' })).toHaveLength(2);
  });

  it('turns off private upstreams in production unless asked', () => {
    expect(
      loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production', SECRET, DATABASE_URL }).upstreamAllowPrivate,
    ).toBe(false);
    expect(
      loadConfig({
        DATA_DIR: tmp(),
        NODE_ENV: 'production',
        SECRET,
        DATABASE_URL,
        UPSTREAM_ALLOW_PRIVATE: 'true',
      }).upstreamAllowPrivate,
    ).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), UPSTREAM_ALLOW_PRIVATE: 'false' }).upstreamAllowPrivate).toBe(false);
  });

  it('reports one line per bad variable, naming it', () => {
    const lines = errorLines({
      DATA_DIR: tmp(),
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      GATEWAY_TIMEOUT_MS: '-5',
      BILLING_PROVIDER: 'paypal',
      UPSTREAM_ALLOW_PRIVATE: 'maybe',
    });
    expect(lines).toHaveLength(5);
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'GATEWAY_TIMEOUT_MS',
      'BILLING_PROVIDER',
      'UPSTREAM_ALLOW_PRIVATE',
    ]) {
      expect(lines.some((line) => line.startsWith(`${name}: `))).toBe(true);
    }
  });

  it('refuses a TRUST_PROXY Fastify could not compile, accepting every documented form (issue 43)', () => {
    expect(errorLines({ DATA_DIR: tmp(), TRUST_PROXY: 'nonsense' })).toEqual([
      'TRUST_PROXY: must be true, false, a hop count or a list of addresses or ranges',
    ]);
    expect(errorLines({ DATA_DIR: tmp(), TRUST_PROXY: '10.0.0.0/99' })[0]).toMatch(/^TRUST_PROXY: /);
    for (const [value, expected] of [
      ['true', true],
      ['off', false],
      ['2', 2],
      ['loopback', 'loopback'],
      ['127.0.0.1, 10.0.0.0/8, ::1', '127.0.0.1, 10.0.0.0/8, ::1'],
    ] as const) {
      expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: value }).trustProxy).toBe(expected);
    }
  });

  it('requires the Stripe keys when BILLING_PROVIDER=stripe', () => {
    expect(errorLines({ DATA_DIR: tmp(), BILLING_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test' })).toEqual(
      [
        'STRIPE_PUBLISHABLE_KEY: is required when BILLING_PROVIDER=stripe',
        'STRIPE_WEBHOOK_SECRET: is required when BILLING_PROVIDER=stripe',
      ],
    );
    const config = loadConfig({
      DATA_DIR: tmp(),
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk',
      STRIPE_PUBLISHABLE_KEY: 'pk',
      STRIPE_WEBHOOK_SECRET: 'wh',
    });
    expect(config.billing).toEqual({
      provider: 'stripe',
      secretKey: 'sk',
      publishableKey: 'pk',
      webhookSecret: 'wh',
    });
  });

  it('collects OIDC providers and names an incomplete one', () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_GOOGLE_CLIENT_ID: 'id',
      OIDC_GOOGLE_CLIENT_SECRET: 'secret',
    });
    expect(config.oidcProviders).toEqual([
      { name: 'google', issuer: 'https://accounts.google.com', clientId: 'id', clientSecret: 'secret' },
    ]);
    expect(errorLines({ DATA_DIR: tmp(), OIDC_GITHUB_ISSUER: 'https://github.com' })).toEqual([
      'OIDC_GITHUB_CLIENT_ID: is required when other OIDC_GITHUB_* variables are set',
      'OIDC_GITHUB_CLIENT_SECRET: is required when other OIDC_GITHUB_* variables are set',
    ]);
  });

  it('derives APP_URL from HOST and PORT and accepts an explicit one', () => {
    expect(loadConfig({ DATA_DIR: tmp(), HOST: '0.0.0.0', PORT: '8080' }).appUrl).toBe(
      'http://localhost:8080',
    );
    expect(loadConfig({ DATA_DIR: tmp(), APP_URL: 'https://air.example.com/' }).appUrl).toBe(
      'https://air.example.com',
    );
    expect(errorLines({ DATA_DIR: tmp(), APP_URL: 'not a url' })[0]).toMatch(/^APP_URL: /);
  });

  it('resolves PLANS_FILE and refuses a missing one', () => {
    const dir = tmp();
    const file = path.join(dir, 'plans.json');
    writeFileSync(file, '{}');
    expect(loadConfig({ DATA_DIR: dir, PLANS_FILE: file }).plansFile).toBe(file);
    expect(errorLines({ DATA_DIR: dir, PLANS_FILE: path.join(dir, 'nope.json') })[0]).toMatch(
      /^PLANS_FILE: file not found/,
    );
  });

  it('leaves tracing off without an OTLP endpoint, and reads the OTEL variables (issue 43 item 1)', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).tracing).toBeNull();
    expect(loadConfig({ DATA_DIR: tmp(), OTEL_SERVICE_NAME: 'air-eu' }).tracing).toBeNull();
    const endpoint = 'https://collector.example:4318';
    expect(
      loadConfig({
        DATA_DIR: tmp(),
        INSTANCE_NAME: 'air-1',
        OTEL_EXPORTER_OTLP_ENDPOINT: `${endpoint}/`,
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%2Cb, x-tenant = eu',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-tenant=us',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=ignored',
        OTEL_SERVICE_NAME: 'air-eu',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      }).tracing,
    ).toEqual({
      tracesUrl: `${endpoint}/v1/traces`,
      headers: { 'api-key': 'a,b', 'x-tenant': 'us' },
      serviceName: 'air-eu',
      resourceAttributes: {
        'service.instance.id': 'air-1',
        'deployment.environment': 'prod',
        'service.name': 'ignored',
      },
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
    });
    // The signal's own URL is taken as given; disabling wins over any endpoint.
    const traces = `${endpoint}/custom/path`;
    const own = {
      DATA_DIR: tmp(),
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: traces,
    };
    expect(loadConfig(own).tracing).toMatchObject({
      tracesUrl: traces,
      serviceName: 'air',
      sampler: 'parentbased_always_on',
    });
    expect(loadConfig({ ...own, OTEL_SDK_DISABLED: 'TRUE' }).tracing).toBeNull();
    expect(loadConfig({ ...own, OTEL_TRACES_EXPORTER: 'none' }).tracing).toBeNull();
  });

  it('refuses each bad OTEL variable in one line naming it, never echoing a header value', () => {
    const bad: [string, string][] = [
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
      ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'grpc://collector:4317'],
      ['OTEL_EXPORTER_OTLP_HEADERS', 'api-key'],
      ['OTEL_EXPORTER_OTLP_TRACES_HEADERS', 'api-key=secret-value\r\nx: y'],
      ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
      ['OTEL_SERVICE_NAME', ' air '],
      ['OTEL_RESOURCE_ATTRIBUTES', 'no-value'],
      ['OTEL_TRACES_SAMPLER', 'sometimes'],
      ['OTEL_SDK_DISABLED', 'maybe'],
      ['OTEL_TRACES_EXPORTER', 'zipkin'],
    ];
    for (const [name, value] of bad) {
      const lines = errorLines({ DATA_DIR: tmp(), [name]: value });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^${name}: `));
      expect(lines[0]).not.toContain('secret-value');
    }
    expect(errorLines({ DATA_DIR: tmp(), OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual([
      'OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf (grpc and http/json are not supported)',
    ]);
    expect(errorLines({ DATA_DIR: tmp(), OTEL_TRACES_SAMPLER_ARG: '2' })[0]).toMatch(
      /^OTEL_TRACES_SAMPLER_ARG: /,
    );
    expect(errorLines({ DATA_DIR: tmp(), OTEL_TRACES_SAMPLER_ARG: '0.5' })).toEqual([
      'OTEL_TRACES_SAMPLER_ARG: applies only when OTEL_TRACES_SAMPLER is traceidratio or parentbased_traceidratio',
    ]);
  });
});
