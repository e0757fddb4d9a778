import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/db/migrate';
import { picosToMinor } from '../src/modules/money/service';
import { withDatabaseName } from './global-setup';

/*
 * Migration 0012 (decision 043) on rows saved in the old units: prices in minor units become
 * micros, costs in millionths of a minor unit become picos, and nothing a customer saved changes
 * in value: the same price, the same invoice amounts, the same spend limit. Runs the migrations up
 * to 0011 on a scratch database (embedded, or PostgreSQL with AIR_TEST_DB=postgres), writes old
 * rows, then runs 0012.
 */

type TQuery = (text: string) => Promise<Record<string, unknown>[]>;

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: { idx: number; tag: string }[];
};

async function runMigration(query: TQuery, tag: string): Promise<void> {
  const text = readFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), 'utf8');
  for (const statement of text.split('--> statement-breakpoint'))
    if (statement.trim()) await query(statement);
}

let query: TQuery;
let close: () => Promise<void>;

beforeAll(async () => {
  const url = process.env.AIR_TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (url) {
    const name = `air_money_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const client = new pg.Client({ connectionString: withDatabaseName(url, name) });
    await client.connect();
    query = async (text) => (await client.query(text)).rows as Record<string, unknown>[];
    close = async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    };
  } else {
    const db = new PGlite();
    query = async (text) => (await db.query(text)).rows as Record<string, unknown>[];
    close = () => db.close();
  }
  for (const entry of journal.entries.filter((e) => e.idx < 12)) await runMigration(query, entry.tag);
}, 120_000);

afterAll(async () => {
  await close();
});

describe('migration 0012: money in micros', () => {
  it('keeps every saved price, cost, invoice amount and spend limit at the same value', async () => {
    const caller = '00000000-0000-4000-8000-000000000001';
    const provider = '00000000-0000-4000-8000-000000000002';
    const endpoint = '00000000-0000-4000-8000-000000000003';
    await query(
      `insert into accounts (id, name) values ('${caller}', 'caller'), ('${provider}', 'provider')`,
    );
    // Old units: 0.01 per call, 3.33 and 7.77 per million tokens (minor units).
    await query(`insert into ai_endpoints (id, account_id, name, route_name, route_endpoint, route_type,
      price_per_call, price_per_1m_input, price_per_1m_output)
      values ('${endpoint}', '${provider}', 'chat', 'old/chat', 'https://example.com/v1/chat/completions',
      'model', 1, 333, 777)`);
    // Three calls of 1,009,102 millionths of a minor unit each (11 input, 7 output tokens).
    for (let i = 0; i < 3; i++)
      await query(`insert into usage_events (caller_account_id, provider_account_id, endpoint_id, status,
        latency_ms, prompt_tokens, completion_tokens, cost_micros, price_per_call, price_per_1m_input,
        price_per_1m_output) values ('${caller}', '${provider}', '${endpoint}', 200, 1, 11, 7, 1009102, 1, 333, 777)`);
    await query(`insert into marketplace_charges (caller_account_id, provider_account_id, endpoint_id,
      route_name, price_per_call, price_per_1m_input, price_per_1m_output, calls, prompt_tokens,
      completion_tokens, amount, fee, currency, period_start, period_end) values ('${caller}',
      '${provider}', '${endpoint}', 'old/chat', 1, 333, 777, 3, 33, 21, 3, 0, 'usd', now(), now())`);
    // The most a spend limit may be (1,000,000.00): it stays as saved.
    await query(`insert into spend_limits (account_id, limit_minor) values ('${caller}', 100000000)`);

    await runMigration(query, journal.entries.find((e) => e.idx === 12)!.tag);

    const [price] = await query(
      `select price_per_call, price_per_1m_input, price_per_1m_output from ai_endpoints where id = '${endpoint}'`,
    );
    expect(price).toEqual({
      price_per_call: 10_000,
      price_per_1m_input: 3_330_000,
      price_per_1m_output: 7_770_000,
    });
    const events = await query(
      `select cost_picos::text as picos, price_per_call, price_per_1m_input, price_per_1m_output
       from usage_events where caller_account_id = '${caller}'`,
    );
    expect(events).toHaveLength(3);
    for (const event of events)
      expect(event).toEqual({
        picos: '10091020000',
        price_per_call: 10_000,
        price_per_1m_input: 3_330_000,
        price_per_1m_output: 7_770_000,
      });
    // The invoice line the calls make is the same amount as before: 3,027,306 millionths -> 3.
    const [sum] = await query(
      `select sum(cost_picos)::text as picos from usage_events where caller_account_id = '${caller}'`,
    );
    expect(picosToMinor(String(sum!.picos))).toBe(3);
    const [charge] = await query(
      `select price_per_call, price_per_1m_input, amount from marketplace_charges`,
    );
    expect(charge).toEqual({ price_per_call: 10_000, price_per_1m_input: 3_330_000, amount: 3 });
    const [limit] = await query(`select limit_minor from spend_limits where account_id = '${caller}'`);
    expect(limit).toEqual({ limit_minor: 100_000_000 });
  });
});
