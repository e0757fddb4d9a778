import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { ZCreatedAiEndpoint } from '@air/shared/schemas/aiendpoint';
import { ZCreatedApiKey } from '@air/shared/schemas/api-key';
import { ZEnvelope } from '@air/shared/schemas/common';
import { ZItem } from '@air/shared/schemas/item';
import { ZSignInData } from '@air/shared/schemas/user';
import { buildApp, type TApp } from '../app';
import { insertUsageRows, type TUsageRow } from '../modules/usage/service';
import { issueToken, TOKEN_TTL_MS } from '../modules/auth-otp/service';
import { userIdByEmail } from '../modules/identity/service';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/client';
import { withDatabase } from '../db/with-database';
import type { TCliCommand } from './command';

export const DEMO_EMAIL = 'demo@air.local';

/** What the demo account is made of: endpoints on local servers, so nothing leaves the machine. */
const DEMO_ENDPOINTS = [
  {
    name: 'Llama 3.2 (local Ollama)',
    route_name: 'demo/llama3.2',
    route_endpoint: 'http://127.0.0.1:11434/v1',
    route_type: 'model',
    isShared: false,
    isPrivate: true,
    description: 'A model served by Ollama on this machine.',
    config: { upstream_model: 'llama3.2' },
  },
  {
    name: 'Support agent',
    route_name: 'demo/support-agent',
    route_endpoint: 'http://127.0.0.1:8000/v1',
    route_type: 'agent',
    isShared: true,
    isPrivate: false,
    description: 'Answers questions about orders and returns. Shared in the marketplace.',
  },
  {
    name: 'Handbook search',
    route_name: 'demo/handbook',
    route_endpoint: 'http://127.0.0.1:8001/v1',
    route_type: 'datasource',
    isShared: false,
    isPrivate: true,
    description: 'The staff handbook as a knowledge base.',
  },
] as const;

const DEMO_ITEMS = ['Quarterly report', 'Onboarding checklist', 'Evaluation set'];
/** Days of usage history written for the usage page (calls per day rise and fall with weekdays). */
const USAGE_DAYS = 30;

export interface TDemoSeed {
  email: string;
  password: string;
  apiKey: string;
  accountId: string;
  endpoints: number;
  usageRows: number;
}

/**
 * Creates a demo user through the API itself (sign-up, verification, endpoints, key, items), so
 * the demo is exactly what a user could have made, then writes a month of usage history for the
 * usage page. Answers null when the address is taken: an existing demo is never changed.
 */
export async function seedDemo(
  app: TApp,
  email = DEMO_EMAIL,
  now = new Date(),
  afterStep: (step: string) => void | Promise<void> = () => {},
): Promise<TDemoSeed | null> {
  if (await userIdByEmail(app.db, email.toLowerCase())) return null;
  const password = `Demo-${randomBytes(12).toString('base64url')}7a`;

  async function call<T extends z.ZodType>(
    schema: T,
    method: 'POST' | 'PATCH',
    url: string,
    payload: unknown,
    token?: string,
  ): Promise<z.infer<T>> {
    const res = await app.inject({
      method,
      url,
      payload: payload as Record<string, unknown>,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (res.statusCode >= 300)
      throw new Error(`seed-demo: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    return schema.parse(res.json());
  }

  const { data: user } = await call(ZEnvelope(ZSignInData), 'POST', '/api/account', {
    name: 'Demo User',
    email,
    password,
  });
  // The verification link would go by mail; the command follows it itself.
  const verifyToken = await issueToken(app.db, {
    kind: 'verify',
    userId: user.id,
    email: user.email,
    ttlMs: TOKEN_TTL_MS.verify,
  });
  await call(ZEnvelope(ZSignInData.partial()), 'POST', '/api/user/verify', { token: verifyToken });
  await afterStep('user');

  const endpointIds: string[] = [];
  for (const endpoint of DEMO_ENDPOINTS) {
    const { data: created } = await call(
      ZEnvelope(ZCreatedAiEndpoint),
      'POST',
      '/api/aiendpoint',
      endpoint,
      user.token,
    );
    endpointIds.push(created.id);
  }
  await afterStep('endpoints');
  const { data: key } = await call(
    ZEnvelope(ZCreatedApiKey),
    'POST',
    '/api/key',
    { name: 'Demo key', scope: ['gateway.invoke', 'aiendpoint.read', 'usage.read'] },
    user.token,
  );
  await afterStep('key');
  for (const name of DEMO_ITEMS) await call(ZEnvelope(ZItem), 'POST', '/api/newitem', { name }, user.token);

  const rows = demoUsage(user.account_id, key.id, endpointIds, now);
  await insertUsageRows(app.db, rows);

  return {
    email,
    password,
    apiKey: key.full_key,
    accountId: user.account_id,
    endpoints: endpointIds.length,
    usageRows: rows.length,
  };
}

/** A deterministic month of calls: more on weekdays, a few errors, latencies and tokens that vary. */
export function demoUsage(accountId: string, keyId: string, endpointIds: string[], now: Date): TUsageRow[] {
  const rows: TUsageRow[] = [];
  for (let day = USAGE_DAYS - 1; day >= 0; day--) {
    const date = new Date(now.getTime() - day * 86_400_000);
    const dayStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    const weekday = date.getUTCDay() % 6 !== 0;
    const calls = (weekday ? 24 : 8) + ((day * 7) % 11);
    for (let i = 0; i < calls; i++) {
      const endpointId = endpointIds[i % endpointIds.length]!;
      const failed = (day + i) % 29 === 0;
      const prompt = 40 + ((i * 37 + day * 13) % 400);
      rows.push({
        callerAccountId: accountId,
        keyId,
        endpointId,
        providerAccountId: accountId,
        status: failed ? 502 : 200,
        latencyMs: 120 + ((i * 53 + day * 17) % 900),
        promptTokens: failed ? null : prompt,
        completionTokens: failed ? null : Math.round(prompt * 0.6),
        tokensEstimated: false,
        streamed: i % 3 === 0,
        errorCode: failed ? 'upstream_unreachable' : null,
        attempts: 1,
        cacheHit: false,
        // Spread over the day, never later than now and never into the day before (in the first
        // hour of a UTC day the oldest day's calls fell outside "last 30 days").
        createdAt: new Date(Math.min(now.getTime(), Math.max(dayStart, date.getTime() - i * 97_000))),
      });
    }
  }
  return rows;
}

/**
 * seedDemo in one transaction (issue 43 item 5): an app built on the transaction makes every
 * request, so a seed that fails part-way (a step refused, the process stopped) leaves nothing.
 */
export async function seedDemoAtomically(
  config: TConfig,
  database: TDatabase,
  email = DEMO_EMAIL,
  afterStep?: (step: string) => void | Promise<void>,
): Promise<TDemoSeed | null> {
  return database.db.transaction(async (tx) => {
    // The embedded one-message batch would write outside the transaction: plain statements instead.
    const inTransaction: TDatabase = { ...database, db: tx, batch: undefined, close: async () => {} };
    const app = await buildApp({ ...config, logLevel: 'warn' }, { database: inTransaction });
    try {
      return await seedDemo(app, email, new Date(), afterStep);
    } finally {
      // The meter writes what it holds on close: inside the transaction too.
      await app.close();
    }
  });
}

const seedDemoCommand: TCliCommand = {
  description: 'create a demo user with endpoints, an API key, items and a month of usage',
  usage: '[EMAIL]',
  async run({ config, args }) {
    if (args.length > 1 || args[0]?.startsWith('--')) {
      console.error('Usage: npm run cli -- seed-demo [EMAIL]');
      return 1;
    }
    const email = args[0] ?? DEMO_EMAIL;
    const seed = await withDatabase(config, (database) => seedDemoAtomically(config, database, email));
    if (!seed) {
      console.error(`${email} already exists: nothing was changed.`);
      return 1;
    }
    console.log(
      `Demo user created. Sign in at ${config.appUrl} as ${seed.email} with password ${seed.password}`,
    );
    console.log(`Gateway key (shown once): ${seed.apiKey}`);
    console.log(
      `${seed.endpoints} endpoints (upstreams on 127.0.0.1: start them to call through the gateway), 3 items, ${seed.usageRows} usage rows over ${USAGE_DAYS} days.`,
    );
    return 0;
  },
};

export default seedDemoCommand;
