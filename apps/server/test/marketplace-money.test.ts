import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { picosToMinor } from '../src/modules/money/service';
import { invoices, usageEvents } from '../src/db/schema';
import { gatewayStateOf } from '../src/gateway/state';
import { advance, CARDS, cardToken, newOwner, send } from './billing-helpers';
import type { TTestApp } from './helpers';
import { COMPLETION, insertKey, type TMockUpstream } from './gateway-fixtures';
import { chatOverHttp, sharePricedRoute, startListeningApp, stopListeningApp } from './marketplace-helpers';

/*
 * Money adds up (issue 24): for one billing period with several callers and providers, per-call
 * and token prices, a platform fee other than the default, and a caller held to a spend limit,
 * every caller's marketplace lines add up to every provider's gross, gross = fee + net, and each
 * line is its calls' exact cost rounded once, to the minor unit. Refused calls cost nothing.
 */

let t: TTestApp;
let upstream: TMockUpstream;
let base: string;
const FEE_PERCENT = 15;
/** The mock upstream's completion tokens: a token-priced call bounds its output to them. */
const MOCK_OUTPUT_TOKENS = COMPLETION.usage.completion_tokens;

beforeAll(async () => {
  ({ t, upstream, base } = await startListeningApp({ platformFeePercent: FEE_PERCENT }));
});

afterAll(() => stopListeningApp({ t, upstream }));

/** A chat call; `maxTokens` bounds its output (what a spend limit reserves for token prices). */
async function call(key: string, routeName: string, maxTokens?: number): Promise<number> {
  const answer =
    maxTokens === undefined
      ? await chatOverHttp(base, key, routeName)
      : await fetch(`${base}/api/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({
            model: routeName,
            messages: [{ role: 'user', content: 'hi' }],
            max_tokens: maxTokens,
          }),
        });
  await answer.arrayBuffer();
  return answer.status;
}

async function route(owner: { headers: Record<string, string> }, routeName: string, price: object) {
  await sharePricedRoute(t.app, owner, routeName, `${upstream.url}/ok`, price);
}

describe('marketplace money for a period', () => {
  it("adds every caller's lines up to every provider's gross (gross = fee + net), with spend-limit refusals costing nothing", async () => {
    const tag = `${process.pid}${Date.now() % 100000}`;
    const providers = [await newOwner(t.app, 'free'), await newOwner(t.app, 'free')];
    // Per call only; per call plus tokens with fractions of a cent per call; tokens only.
    const routes = [`money${tag}/flat`, `money${tag}/tokens`, `money${tag}/only-tokens`];
    await route(providers[0]!, routes[0]!, {
      per_call: 90_000,
      per_1m_input_tokens: 0,
      per_1m_output_tokens: 0,
    });
    await route(providers[0]!, routes[1]!, {
      per_call: 20_000,
      per_1m_input_tokens: 43_210_000,
      per_1m_output_tokens: 87_650_000,
    });
    await route(providers[1]!, routes[2]!, {
      per_call: 0,
      per_1m_input_tokens: 500_000_000,
      per_1m_output_tokens: 900_000_000,
    });

    const callers: { accountId: string; headers: Record<string, string>; key: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const owner = await newOwner(t.app);
      const token = await cardToken(t.app, owner.headers, CARDS.ok);
      const plan = await send(t.app, owner.headers, 'POST', '/api/account/plan', { plan: 'pro', token });
      expect(plan.statusCode, plan.body).toBe(200);
      callers.push({ ...owner, key: (await insertKey(t.db, t.config.secret, owner.accountId)).raw });
    }
    // The third caller may spend 0.50 this month: the flat route's 9 a call stops it at 5 calls
    // (45); two calls of the token route (about 2.10 reserved: the prompt counted and max_tokens,
    // about 2.11 charged each) fit, the third does not; with 0.78 left, a tokens-only call
    // (1.03 reserved) does not fit at all.
    const limited = callers[2]!;
    expect(
      (
        await send(t.app, limited.headers, 'PATCH', '/api/account/spend-limit', {
          marketplace_spend_limit: 50,
        })
      ).statusCode,
    ).toBe(200);

    const statuses: Record<string, number[]> = {};
    for (const [n, caller] of callers.entries()) {
      const seen: number[] = [];
      for (let i = 0; i < 6 + n; i++) seen.push(await call(caller.key, routes[0]!));
      for (let i = 0; i < 3; i++) seen.push(await call(caller.key, routes[1]!, MOCK_OUTPUT_TOKENS));
      for (let i = 0; i < 2 + n; i++) seen.push(await call(caller.key, routes[2]!, MOCK_OUTPUT_TOKENS));
      statuses[caller.accountId] = seen;
    }
    // Unlimited callers: every call answered.
    expect(statuses[callers[0]!.accountId]!.every((status) => status === 200)).toBe(true);
    expect(statuses[callers[1]!.accountId]!.every((status) => status === 200)).toBe(true);
    const limitedStatuses = statuses[limited.accountId]!;
    expect(limitedStatuses.slice(0, 8)).toEqual([200, 200, 200, 200, 200, 402, 402, 402]);
    expect(limitedStatuses.slice(8)).toEqual([200, 200, 402, 402, 402, 402, 402]);
    await gatewayStateOf(t.app).meter.flush();

    // Refused calls are not stored as calls; the limited caller's stored spend is within its limit.
    const stored = await t.db
      .select({
        caller: usageEvents.callerAccountId,
        calls: sql<number>`count(*)::int`,
        picos: sql<string>`coalesce(sum(${usageEvents.costPicos}), 0)::text`,
      })
      .from(usageEvents)
      .where(
        and(
          inArray(
            usageEvents.callerAccountId,
            callers.map((caller) => caller.accountId),
          ),
          // Forwarded calls: refusals are logged without an endpoint (gateway/refusal-log.ts).
          isNotNull(usageEvents.endpointId),
        ),
      )
      .groupBy(usageEvents.callerAccountId);
    const byCaller = new Map(stored.map((row) => [row.caller, row]));
    expect(Number(byCaller.get(limited.accountId)!.calls)).toBe(7);
    expect(Number(byCaller.get(limited.accountId)!.picos)).toBe((45_000_000 + 2 * 2_108_886) * 10_000);

    // The exact cost of each caller's lines, grouped as a renewal groups them, rounded once each.
    const groups = await t.db
      .select({
        caller: usageEvents.callerAccountId,
        picos: sql<string>`sum(${usageEvents.costPicos})::text`,
      })
      .from(usageEvents)
      .where(
        sql`${usageEvents.costPicos} is not null and ${inArray(
          usageEvents.callerAccountId,
          callers.map((caller) => caller.accountId),
        )}`,
      )
      .groupBy(usageEvents.callerAccountId, usageEvents.endpointId, usageEvents.pricePerCall);
    const expected = new Map<string, number>();
    for (const group of groups)
      expected.set(group.caller, (expected.get(group.caller) ?? 0) + picosToMinor(group.picos));

    await advance(t.app, 32);

    let callerLines = 0;
    let lineFees = 0;
    for (const caller of callers) {
      const rows = await t.db.select().from(invoices).where(eq(invoices.accountId, caller.accountId));
      const lines = rows
        .flatMap((invoice) => invoice.lines)
        .filter((line) => line.description.startsWith('Marketplace'));
      const sum = lines.reduce((total, line) => total + line.amount, 0);
      expect(sum).toBe(expected.get(caller.accountId));
      expect(
        rows.filter((invoice) => invoice.lines.some((line) => line.description.startsWith('Marketplace'))),
      ).toEqual([expect.objectContaining({ status: 'paid' })]);
      callerLines += sum;
      for (const line of lines) lineFees += Math.floor((line.amount * FEE_PERCENT + 50) / 100);
    }
    expect(expected.get(limited.accountId)).toBe(49);

    let gross = 0;
    let fees = 0;
    for (const provider of providers) {
      const earnings = await t.app.inject({ url: '/api/account/earnings', headers: provider.headers });
      expect(earnings.statusCode, earnings.body).toBe(200);
      const data = earnings.json().data as {
        fee_percent: number;
        rows: { gross: number; fee: number; net: number; paying_accounts: number }[];
      };
      expect(data.fee_percent).toBe(FEE_PERCENT);
      for (const row of data.rows) {
        expect(row.gross).toBe(row.fee + row.net);
        gross += row.gross;
        fees += row.fee;
      }
    }
    expect(callerLines).toBe(gross);
    // The fee is 15 % of each caller line, rounded once per line (half up).
    expect(fees).toBe(lineFees);
    expect(fees).toBeGreaterThan(0);
  });
});
