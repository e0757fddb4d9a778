// The benchmark's data, written before AIR starts (AIR itself starts exactly as `npm start` does):
// one account on an unlimited plan, with a card on file and a spend limit, one key and endpoints
// pointing at the mock upstream (plain, routed, the fault scenario's), and a second account's
// priced public endpoint (the marketplace target), in the database the environment names
// (DATA_DIR's embedded one, or DATABASE_URL). Prints
// `{"key":"air_…","route":"bench/mock-…",…}`. Run with `node --import tsx`.
import { parseArgs } from 'node:util';
import { loadPlans, seedPlans } from '../src/modules/billing/plans';
import { loadConfig } from '../src/config';
import { withDatabase } from '../src/db/with-database';
import { accounts, aiEndpoints, apiKeys } from '../src/db/schema';
import { cards } from '../src/db/schema/cards';
import { spendLimits } from '../src/db/schema/spend-limits';
import { encryptSecret, randomBase62, sha256 } from '../src/lib/crypto';

const { values } = parseArgs({
  options: { upstream: { type: 'string' }, 'fault-upstream': { type: 'string' } },
});
const config = loadConfig(process.env);
const seeded = await withDatabase(config, async ({ db }) => {
  await seedPlans(db, loadPlans(config.plansFile));
  const [account] = await db.insert(accounts).values({ name: 'Bench', planId: 'bench' }).returning();
  const key = `air_${randomBase62(40)}`;
  await db.insert(apiKeys).values({
    accountId: account!.id,
    name: 'bench',
    keyHash: sha256(key),
    keyEnc: encryptSecret(config.secret, key),
    keyPrefix: key.slice(0, 8),
    scope: ['gateway.invoke'],
  });
  // Unique per run: a PostgreSQL bench database keeps earlier runs' rows.
  const route = `bench/mock-${randomBase62(8).toLowerCase()}`;
  await db.insert(aiEndpoints).values({
    accountId: account!.id,
    name: 'bench',
    routeName: route,
    routeEndpoint: `${values.upstream}/v1/chat/completions`,
    routeType: 'model',
  });
  // The routed target (contract 6a): two healthy upstreams (two URLs of the one mock), retries 2,
  // the circuit on, no cache.
  const routed = `bench/routed-${randomBase62(8).toLowerCase()}`;
  const first = `${values.upstream}/v1/chat/completions`;
  await db.insert(aiEndpoints).values({
    accountId: account!.id,
    name: 'bench routed',
    routeName: routed,
    routeEndpoint: first,
    routeType: 'model',
    routing: {
      upstreams: [
        { url: first, weight: 1 },
        { url: `${values.upstream}/v1/chat/completions?upstream=2`, weight: 1 },
      ],
      retry: { attempts: 2, backoff_ms: 250 },
      circuit: { failures: 5, cooldown_s: 30 },
    },
  });
  // The fault scenario: the mock and a second mock process the bench stops for 10 s.
  const fault = `bench/fault-${randomBase62(8).toLowerCase()}`;
  await db.insert(aiEndpoints).values({
    accountId: account!.id,
    name: 'bench fault',
    routeName: fault,
    routeEndpoint: first,
    routeType: 'model',
    routing: {
      upstreams: [
        { url: first, weight: 1 },
        { url: `${values['fault-upstream']}/v1/chat/completions`, weight: 1 },
      ],
      retry: { attempts: 2, backoff_ms: 50 },
      circuit: { failures: 5, cooldown_s: 2 },
    },
  });
  // The anthropic-upstream target (issue 40): one Anthropic-format upstream, the mock's Messages
  // API; OpenAI callers' chat calls are translated to it and its answers back.
  const anthropic = `bench/anthropic-${randomBase62(8).toLowerCase()}`;
  const messagesUrl = `${values.upstream}/v1/messages`;
  await db.insert(aiEndpoints).values({
    accountId: account!.id,
    name: 'bench anthropic',
    routeName: anthropic,
    routeEndpoint: messagesUrl,
    routeType: 'model',
    routing: { upstreams: [{ url: messagesUrl, weight: 1, format: 'anthropic' }] },
  });
  // The marketplace target: another account's public endpoint with a price (contract 5a). The
  // caller has a card on file (priced routes of others need one) and a spend limit it never
  // reaches, so each call is priced and, where the gateway checks spend, checked.
  const [provider] = await db
    .insert(accounts)
    .values({ name: 'Bench provider', planId: 'bench' })
    .returning();
  const priced = `bench/priced-${randomBase62(8).toLowerCase()}`;
  await db.insert(aiEndpoints).values({
    accountId: provider!.id,
    name: 'bench priced',
    routeName: priced,
    routeEndpoint: first,
    routeType: 'model',
    isPrivate: false,
    isShared: true,
    pricePerCall: 1,
    pricePer1mInput: 100,
    pricePer1mOutput: 200,
  });
  await db
    .insert(cards)
    .values({ accountId: account!.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099 });
  await db.insert(spendLimits).values({ accountId: account!.id, limitMinor: 2_000_000_000 });
  // The governed targets (issue 42): a key with tokens per minute it never reaches (each call's
  // prompt counted and reserved, then settled), and a key with a budget in money it never reaches
  // (each priced call reserved against the budget and the spend limit at once).
  const governed = async (name: string, controls: { tokensPerMinute?: number; monthlySpend?: number }) => {
    const raw = `air_${randomBase62(40)}`;
    await db.insert(apiKeys).values({
      accountId: account!.id,
      name,
      keyHash: sha256(raw),
      keyEnc: encryptSecret(config.secret, raw),
      keyPrefix: raw.slice(0, 8),
      scope: ['gateway.invoke'],
      ...controls,
    });
    return raw;
  };
  const tokenKey = await governed('bench tokens', { tokensPerMinute: 1_000_000_000 });
  const budgetKey = await governed('bench budget', { monthlySpend: 100_000_000 });
  return { key, route, routed, fault, priced, tokenKey, budgetKey, anthropic };
});
process.stdout.write(JSON.stringify(seeded) + '\n');
